// Journey 4: no-spend mode. The daemon and the stdio server never register the
// two generate tools; the CLI and the library refuse generation; nothing is
// ever submitted to (the simulated) Flow.
import path from 'node:path';
import { createGflow } from '@gflow/core';
import { exitCodeOf } from '@gflow/errors';
import { describe, expect, it } from 'vitest';
import { json } from '@gflow/testkit';
import { gflowHttp, type ServeProcess } from '@gflow/testkit/cli';
import type { McpConnection } from '@gflow/testkit/mcp';
import { submits, useSandbox } from '@gflow/testkit/sandbox';

const SPENDING = ['gflow_generate_image', 'gflow_generate_video'];
const e2e = useSandbox({ seed: 'journey-no-spend' });

/** tools/list lacks the spending tools, read tools remain, and calling one is refused without any submit. */
async function expectNoSpendServer(conn: McpConnection): Promise<void> {
  const names = await conn.toolNames();
  expect(names).toContain('gflow_list_models');
  for (const name of SPENDING) expect(names).not.toContain(name);
  e2e.sim.received.clear();
  let refused: unknown;
  try {
    const reply = await conn.call('gflow_generate_image', { prompt: 'should never run' });
    refused = reply.isError
      ? reply
      : new Error(`a no-spend server ran gflow_generate_image: ${JSON.stringify(reply.structured)}`);
    expect(reply.isError).toBe(true);
  } catch (error) {
    refused = error;
  }
  expect(String((refused as { message?: unknown })?.message ?? JSON.stringify(refused))).toMatch(
    /not found|unknown tool|gflow_generate_image/i,
  );
  expect(submits(e2e.sim)).toEqual([]);
}

describe('journey 4: no-spend', () => {
  it('gflow serve --no-spend: tools/list lacks both generate tools', async () => {
    let serve: ServeProcess | undefined;
    let conn: McpConnection | undefined;
    try {
      serve = await e2e.serve(['--no-spend', '--sandbox']);
      conn = await gflowHttp(serve, { era: 'modern' });
      await expectNoSpendServer(conn);
    } finally {
      await conn?.close();
      await serve?.stop();
    }
  }, 120_000);

  it('gflow mcp run --no-spend: tools/list lacks both generate tools', async () => {
    const conn = await e2e.mcpStdio(['--no-spend', '--sandbox']);
    try {
      await expectNoSpendServer(conn);
    } finally {
      await conn.close();
    }
  }, 120_000);

  it('GFLOW_MCP_NO_SPEND=1 gflow mcp run: the environment form does the same', async () => {
    const conn = await e2e.mcpStdio(['--sandbox'], { env: { GFLOW_MCP_NO_SPEND: '1' } });
    try {
      await expectNoSpendServer(conn);
    } finally {
      await conn.close();
    }
  }, 120_000);

  it('the CLI refuses image t2i under GFLOW_MCP_NO_SPEND=1 (exit 11, nothing submitted)', async () => {
    e2e.sim.received.clear();
    const run = await e2e.cli(['image', 't2i', 'should never run', '--sandbox', '--json'], {
      env: { GFLOW_MCP_NO_SPEND: '1' },
    });
    const out = json(run);
    expect(out['status']).toBe('error');
    const problem = out['error'] as Record<string, unknown>;
    expect(run.exitCode, JSON.stringify(out)).toBe(11);
    expect(String(problem['type'])).toMatch(/^https:\/\/gflow\.dev\/errors\//);
    expect(String(problem['detail'])).toMatch(/no-spend|spend/i);
    expect(submits(e2e.sim)).toEqual([]);
    // A read command still works in no-spend mode.
    const models = await e2e.cli(['models', '--json'], { env: { GFLOW_MCP_NO_SPEND: '1' } });
    expect(models.exitCode, models.stderr).toBe(0);
  }, 90_000);

  it('the library refuses generateImage under GFLOW_MCP_NO_SPEND=1', async () => {
    const home = path.join(e2e.home, 'library');
    const lib = createGflow({
      surface: 'library',
      env: { GFLOW_CLI_HOME: home, GFLOW_MCP_NO_SPEND: '1', GFLOW_CLI_LOG_LEVEL: 'WARNING' },
      cwd: home,
    });
    try {
      e2e.sim.received.clear();
      await expect(lib.run('generateImage', { prompt: 'should never run', profile: 'nobody' })).rejects.toSatisfy(
        (error: unknown) => exitCodeOf(error) === 11,
      );
      expect(e2e.sim.received.calls()).toEqual([]);
    } finally {
      await lib.close();
    }
  });
});
