// Every tool schema in tools/list is portable (issue 43): no `type` arrays, every schema with a
// `type` or an `anyOf`, every array with `items` — checked over both eras, with every tool a
// spending server lists and with what a no-spend one lists.
import { Gflow } from '@gflow/core';
import { loadOperations } from '@gflow/core/surfaces';

const OPERATIONS = await loadOperations();
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { portabilityWarnings } from '../src/tools/portableSchema.js';
import { ERAS, closedAfterEach, connectClient, inProcessHandler } from './clients.js';

const open = closedAfterEach();

/** A runtime with gflow's real operations only (the tests' stand-ins are not what a client sees). */
function realGflow(noSpend: boolean): Gflow {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-portable-'));
  const env = { GFLOW_CLI_HOME: home, GFLOW_CLI_LOG_LEVEL: 'ERROR', ...(noSpend ? { GFLOW_MCP_NO_SPEND: '1' } : {}) };
  return new Gflow({ surface: 'mcp', env, cwd: home }, OPERATIONS);
}

describe.each(ERAS)('tools/list schemas are portable (%s era)', (era) => {
  it.each([
    ['a spending server', false],
    ['a no-spend server', true],
  ] as const)('%s: 0 warnings over every input and output schema', async (_label, noSpend) => {
    const gflow = realGflow(noSpend);
    const handler = inProcessHandler(gflow);
    const client = await connectClient(handler, era);
    open.push({ client, handler, gflow });
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(20);
    const warnings = tools.flatMap((tool) => [
      ...portabilityWarnings(tool.inputSchema, `${tool.name}.inputSchema`),
      ...portabilityWarnings(tool.outputSchema, `${tool.name}.outputSchema`),
    ]);
    expect(warnings).toEqual([]);
    // What the check looks at is there: nullable outputs are anyOf with null.
    const video = tools.find((t) => t.name === 'gflow_generate_video');
    if (!noSpend)
      expect((video?.outputSchema?.['properties'] as Record<string, unknown>)['flow_project_id']).toEqual({
        anyOf: [{ type: 'string' }, { type: 'null' }],
      });
  });
});
