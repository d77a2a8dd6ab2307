// Journey 2, continued: a server that stops normally — `gflow serve` on
// SIGTERM (docs/MCP.md §6 "Shutdown"), `gflow mcp run` when its client
// closes stdin (§3) — cancels its running job and records it at once:
// `indeterminate`, since the submit had reached Flow. No browser is left behind.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { processesMentioning } from './helpers/processes.js';
import { taskRow } from './helpers/catalog.js';
import { waitFor } from '@gflow/testkit';
import { gflowHttp } from '@gflow/testkit/cli';
import type { McpConnection } from '@gflow/testkit/mcp';
import { SANDBOX_EMAIL, submits, useSandbox } from '@gflow/testkit/sandbox';

const e2e = useSandbox({ seed: 'journey-shutdown', signIn: true });

/** Starts a generation that Flow never answers and returns its task id once the submit has reached the simulator. */
async function stuckTask(conn: McpConnection): Promise<string> {
  e2e.sim.received.clear();
  e2e.sim.scenario.setFailure(SANDBOX_EMAIL, 'stuck_generation', { times: 1 });
  const reply = await conn.call('gflow_generate_image', { prompt: 'in flight at shutdown', wait: false });
  expect(reply.structured, JSON.stringify(reply.structured)).toMatchObject({ status: 'pending' });
  await waitFor('the submit to reach the simulator', () => submits(e2e.sim).length === 1, 60_000);
  return String(reply.structured['task_id']);
}

describe('journey 2: stopping a server with a job in flight', () => {
  const profileDir = () => path.join(e2e.sandboxHome, 'profile_sandbox');

  it('gflow serve on SIGTERM exits cleanly and records its running job indeterminate', async () => {
    const serve = await e2e.serve(['--sandbox']);
    const conn = await gflowHttp(serve, { era: 'modern' });
    try {
      const taskId = await stuckTask(conn);
      serve.run.child.kill('SIGTERM');
      // It stops by itself (a hang ends at the test's timeout; a kill by the signal is exit 143, below).
      const stopped = await serve.run.done;
      // Read before any other gflow process opens (and so settles) the catalog.
      const row = taskRow(e2e.dbPath, taskId);
      expect(row?.status, `exit ${stopped.exitCode}; stderr: ${serve.run.stderr().slice(-1500)}`).toBe('indeterminate');
      expect(stopped.exitCode, 'killed by the signal instead of shutting down').not.toBe(143);
      await waitFor('no browser left on the profile', () => processesMentioning(profileDir()).length === 0, 15_000);
    } finally {
      await conn.close().catch(() => undefined);
      await serve.stop();
      e2e.sim.scenario.clearFailures();
    }
  }, 120_000);

  it('gflow mcp run, when its client closes stdin, records its running job indeterminate', async () => {
    // A previous failure may have left a row working; settle it first so this test reads its own.
    await e2e.cli(['data', 'list', 'profiles', '--sandbox', '--json']);
    const conn = await e2e.mcpStdio(['--sandbox']);
    let taskId = '';
    try {
      taskId = await stuckTask(conn);
    } finally {
      await conn.close();
      e2e.sim.scenario.clearFailures();
    }
    const row = await waitFor(
      'the task row to settle',
      () => {
        const current = taskRow(e2e.dbPath, taskId);
        return current && current.status !== 'working' ? current : undefined;
      },
      20_000,
    );
    expect(row.status).toBe('indeterminate');
    await waitFor('no browser left on the profile', () => processesMentioning(profileDir()).length === 0, 15_000);
  }, 120_000);
});
