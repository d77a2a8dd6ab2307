// The sandbox keeps its own state (profiles, catalog, outputs in <home>/sandbox) but reads the
// user's configuration from the real home: the flows in <home>/flows and the prompt tools in
// <home>/tools are where a user tries them first (issue: "Sandbox and user config").
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '@gflow/testkit';
import { browserSetting } from '@gflow/testkit/browser';
import { gflowStdio } from '@gflow/testkit/cli';
import { describe, expect, it } from 'vitest';

const USER_FLOW = `
name: mine
entries:
  - mcp_tool:
      name: my_model_count
      description: Lists the models (a user flow of the real home).
      input_schema: { type: object, properties: {}, additionalProperties: false }
      steps:
        - name: models
          operation: listModels
`;

describe('gflow mcp run --sandbox and the user configuration', () => {
  it("lists the real home's flows and prompt tools; its state stays in the sandbox home", async () => {
    const home = tempDir('sandbox-config');
    fs.mkdirSync(path.join(home, 'flows'));
    fs.writeFileSync(path.join(home, 'flows', 'mine.yaml'), USER_FLOW);
    fs.mkdirSync(path.join(home, 'tools'));
    fs.writeFileSync(
      path.join(home, 'tools', 'noir-look.toml'),
      'title = "Noir look"\ndescription = "A user prompt tool."\ntemplate = "{prompt}, film noir, hard shadows"\n',
    );
    const conn = await gflowStdio(['--sandbox'], { home, env: browserSetting(), name: 'sandbox-config-test' });
    try {
      const { tools } = await conn.client.listTools();
      expect(tools.map((t) => t.name)).toContain('my_model_count');
      const listed = await conn.client.callTool({ name: 'gflow_list_tools', arguments: {} });
      expect(JSON.stringify(listed.structuredContent)).toContain('noir-look');
    } finally {
      await conn.close();
    }
    // State: the sandbox's catalog and profile, none in the real home.
    expect(fs.existsSync(path.join(home, 'sandbox', 'gflow.db'))).toBe(true);
    expect(fs.existsSync(path.join(home, 'gflow.db'))).toBe(false);
    expect(fs.readdirSync(home).filter((f) => f.startsWith('profile_'))).toEqual([]);
  }, 90_000);
});
