// Issue 40, done when: with another process holding BEGIN EXCLUSIVE on the catalog for 10 s, a CLI
// command waits and succeeds; held for longer, it ends with a retryable busy error naming the
// catalog (exit 42, in docs/CLI.md's table), and the gflow process at work when a lease names it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cli, holdSqliteLock, makeHome, spawnCli } from '@gflow/testkit/cli';
import { json } from '@gflow/testkit';
import { afterEach, describe, expect, it } from 'vitest';

const releases: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const release of releases.splice(0)) await release();
});

const PRUNE = ['data', 'errors', 'prune', '--older-than', '30d', '--json'];

/** A home whose catalog exists (one command ran), and another process holding it. */
async function heldHome(holdMs?: number) {
  const home = makeHome('catalog-busy');
  expect((await cli(PRUNE, { home })).exitCode).toBe(0);
  const holder = holdSqliteLock(path.join(home, 'gflow.db'), holdMs === undefined ? {} : { holdMs });
  releases.push(() => holder.release());
  await holder.held;
  return { home, holder };
}

describe('a catalog another process holds with BEGIN EXCLUSIVE (issue 40)', () => {
  it('for 10 s: a command that writes waits it out and succeeds', { timeout: 90_000 }, async () => {
    const { home, holder } = await heldHome(10_000);
    const run = spawnCli(PRUNE, { home });
    const started = Date.now();
    const result = await run.done;
    expect(result.exitCode, result.stderr).toBe(0);
    expect(json(result)['status']).toBe('ok');
    // Started while the lock was held, finished once it was released: it waited.
    expect(started).toBeLessThan(await holder.released);
  });

  it('past the busy timeout: exit 42, retryable catalog-busy naming the catalog and the holder', async () => {
    const { home, holder } = await heldHome();
    // What a gflow process at work leaves in the locks dir (here: the holder's own pid).
    fs.mkdirSync(path.join(home, 'locks'), { recursive: true });
    fs.writeFileSync(
      path.join(home, 'locks', 'profile_alice-0123456789abcdef.holder.json'),
      JSON.stringify({
        version: 1,
        pid: holder.pid,
        process_start_time: new Date().toISOString(),
        profile_name: 'alice',
        hostname: os.hostname(),
        acquired_at: new Date().toISOString(),
        owner_token: 'x',
        surface: 'mcp run',
        activity: 'busy',
        doing: 'Generate images (gflow_generate_image)',
      }),
    );
    const result = await cli(PRUNE, { home, env: { GFLOW_CLI_CATALOG_BUSY_SECONDS: '1' } });
    expect(result.exitCode, result.stderr).toBe(42);
    const { status, error } = json(result) as { status: string; error: Record<string, unknown> };
    expect(status).toBe('error');
    expect(error).toMatchObject({ type: 'https://gflow.dev/errors/catalog-busy', status: 503, retryable: true });
    expect(String(error['detail'])).toContain('The catalog (gflow.db) is locked by another process');
    expect(String(error['detail'])).toContain(`gflow mcp run, pid ${holder.pid}, profile "alice"`);
    expect(String(error['detail'])).toContain('busy with Generate images');
    expect(JSON.stringify(error)).not.toMatch(/[Mm]igration/);
    const text = await cli(PRUNE.slice(0, -1), { home, env: { GFLOW_CLI_CATALOG_BUSY_SECONDS: '1' } });
    expect(text.exitCode).toBe(42);
    expect(text.stderr).toContain('[CatalogBusyError]');
  });
});
