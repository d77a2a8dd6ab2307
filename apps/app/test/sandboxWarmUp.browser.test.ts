// A sandbox server answers at once (issue 43): `gflow mcp run --sandbox` and `gflow serve --sandbox`
// on a fresh home answer initialize (and list their tools) while the first sign-in is still under
// way — the simulator holds its sign-in page (held_sign_in) — and the first tool call waits for the
// sign-in, saying so as progress, then runs on the signed-in profile. No timing: the sign-in
// cannot finish while it is held.
import path from 'node:path';
import { waitFor } from '@gflow/testkit';
import { gflowHttp } from '@gflow/testkit/cli';
import type { McpConnection } from '@gflow/testkit/mcp';
import { tempDir } from '@gflow/testkit';
import { useSandbox } from '@gflow/testkit/sandbox';
import { afterEach, describe, expect, it } from 'vitest';

const sandbox = useSandbox({ seed: 'sandbox-warm-up' });
const SIGN_IN_PAGE = '/v3/signin/identifier';

afterEach(() => sandbox.sim.scenario.clearFailures());

/** gflow_auth_status as a client with a progress token calls it: its reply and the progress messages it heard. */
async function authStatus(conn: McpConnection, progress: string[]): Promise<Record<string, unknown>> {
  const result = await conn.client.callTool(
    { name: 'gflow_auth_status', arguments: {} },
    { onprogress: (p) => void progress.push(String(p.message ?? '')), timeout: 150_000 },
  );
  expect(result.isError ?? false, JSON.stringify(result.structuredContent)).toBe(false);
  return result.structuredContent as Record<string, unknown>;
}

/** While the first sign-in is held: the server already answers; a call waits for the sign-in, saying so; released, it runs. */
async function answersWhileSigningIn(conn: McpConnection, heldBefore: number): Promise<void> {
  // The sign-in reached the simulator and is held there: it cannot have finished.
  await waitFor('the first sign-in to be held', () => sandbox.sim.received.held().length > heldBefore, 90_000);
  expect(await conn.toolNames()).toContain('gflow_generate_video');
  const progress: string[] = [];
  const call = authStatus(conn, progress);
  await waitFor('the call to say it waits for the sign-in', () =>
    progress.some((m) => /signing the sandbox profile in/.test(m)),
  );
  sandbox.sim.scenario.clearFailure('*', 'held_sign_in');
  expect(await call).toMatchObject({ status: 'authenticated', profile: 'sandbox' });
}

describe('a sandbox server answers before its first sign-in', () => {
  it('gflow mcp run --sandbox: initialize is answered while the sign-in is held', async () => {
    sandbox.sim.scenario.setFailure('*', 'held_sign_in');
    const heldBefore = sandbox.sim.received.held().filter((p) => p === SIGN_IN_PAGE).length;
    const conn = await sandbox.mcpStdio(['--sandbox']);
    try {
      await answersWhileSigningIn(conn, heldBefore);
    } finally {
      await conn.close();
    }
  }, 180_000);

  it('gflow serve --sandbox: it listens and answers initialize while the sign-in is held (its own fresh home)', async () => {
    sandbox.sim.scenario.setFailure('*', 'held_sign_in');
    const heldBefore = sandbox.sim.received.held().length;
    const home = tempDir('warm-up-serve');
    const serve = await sandbox.serve(['--sandbox'], {
      env: { GFLOW_CLI_HOME: home, HOME: home, GFLOW_CLI_OUTPUT_DIR: path.join(home, 'out') },
    });
    try {
      const conn = await gflowHttp(serve);
      try {
        await answersWhileSigningIn(conn, heldBefore);
      } finally {
        await conn.close();
      }
    } finally {
      await serve.stop();
    }
  }, 180_000);
});
