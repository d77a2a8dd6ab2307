// Moved from src/tasks/settleAbandoned.test.ts: it starts a process (the tests beside the code
// start none, docs/TESTING.md).
import { spawnSync } from 'node:child_process';
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
});
