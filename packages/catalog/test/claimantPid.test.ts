// Moved from src/tasks/settleAbandoned.test.ts: it starts a process (the tests beside the code
// start none, docs/TESTING.md).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { claimantPidIsAlive, formatClaimant } from '../src/index.js';

describe('claimantPidIsAlive', () => {
  it('sees a process that has exited as dead', () => {
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    expect(
      claimantPidIsAlive(
        formatClaimant({ surface: 'mcp', profile: 'alice', pid: Number(child.stdout), startToken: 'abc123' }),
      ),
    ).toBe(false);
  });

  it('sees an exited process nobody reaped (a zombie) as dead', async () => {
    // A detached grandchild whose parent exits is reparented to init; killed, it stays a zombie
    // until init reaps it, which a container's pid 1 may never do. Either way it is dead.
    const parent = spawnSync(
      process.execPath,
      [
        '-e',
        "const c = require('node:child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { detached: true, stdio: 'ignore' }); c.unref(); process.stdout.write(String(c.pid));",
      ],
      { encoding: 'utf8' },
    );
    const pid = Number(parent.stdout);
    const claimant = formatClaimant({ surface: 'worker', profile: 'alice', pid, startToken: 'abc123' });
    try {
      expect(claimantPidIsAlive(claimant)).toBe(true);
    } finally {
      process.kill(pid, 'SIGKILL');
    }
    // Wait for the kill to land (the state leaves R/S), not for a time.
    const state = (): string => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2).charAt(0);
      } catch {
        return 'gone';
      }
    };
    for (let i = 0; i < 500 && ['S', 'R', 'D'].includes(state()); i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(['S', 'R', 'D']).not.toContain(state());
    expect(claimantPidIsAlive(claimant)).toBe(false);
  });
});
