// Journey 6: SIGKILL mid-generation (after the submit reached Flow), then a
// new gflow run on the same profile: the orphaned task is settled
// `indeterminate`, the profile lease is free, the catalog is intact and no
// partial download is left behind.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { processesMentioning } from './helpers/processes.js';
import { integrityCheck, taskRow, taskRows } from './helpers/catalog.js';
import { filesUnder, json, waitFor } from '@gflow/testkit';
import { SANDBOX_EMAIL, submits, useSandbox } from '@gflow/testkit/sandbox';

const e2e = useSandbox({ seed: 'journey-restart', signIn: true });

describe('journey 6: restart after SIGKILL mid-generation', () => {
  it('settles the orphaned task indeterminate, frees the lease, keeps the catalog intact, leaves no partial file', async () => {
    const profileDir = path.join(e2e.sandboxHome, 'profile_sandbox');
    expect(fs.existsSync(profileDir)).toBe(true);
    e2e.sim.received.clear();
    // Flow never answers this submit: the CLI is mid-generation when it is killed.
    e2e.sim.scenario.setFailure(SANDBOX_EMAIL, 'stuck_generation', { times: 1 });
    const victim = e2e.spawn(['image', 't2i', 'killed mid-generation', '--aspect', '16:9', '--sandbox', '--json']);
    try {
      await waitFor('the submit to reach the simulator', () => submits(e2e.sim).length === 1, 60_000);
      const working = await waitFor(
        'the task row to be working',
        () => taskRows(e2e.dbPath).find((row) => row.status === 'working'),
        10_000,
      );
      victim.killGroup();
      const killed = await victim.done;
      expect(killed.exitCode).toBe(137);
      // gflow and the Chromium it launched on the profile are all gone.
      await waitFor('no process left on the profile', () => processesMentioning(profileDir).length === 0, 15_000);

      // Nothing has opened the catalog since: the row still says working, with a spend checkpoint.
      const orphan = taskRow(e2e.dbPath, working.task_id);
      expect(orphan?.status).toBe('working');
      expect(JSON.parse(orphan?.checkpoint_json ?? '{}')).toMatchObject({ may_have_spent: true });

      // A new run on the same profile: the lease is free (the CLI waits 0 s), the generation succeeds.
      const next = await e2e.cli(['image', 't2i', 'after the restart', '--aspect', '1:1', '--sandbox', '--json']);
      expect(next.exitCode, next.stdout + next.stderr.slice(-1500)).toBe(0);
      expect(json(next)).toMatchObject({ status: 'completed' });
      expect(submits(e2e.sim)).toEqual(['ogiZ0b', 'ogiZ0b']);

      // Opening the catalog settled the orphan: it had submitted, so a credit may have been spent.
      expect(taskRow(e2e.dbPath, working.task_id)?.status).toBe('indeterminate');
      expect(taskRows(e2e.dbPath).filter((row) => row.status === 'working')).toEqual([]);
      expect(integrityCheck(e2e.dbPath)).toBe('ok');
      // Files are written atomically: no temporary (.part) file anywhere in the sandbox home.
      expect(filesUnder(e2e.sandboxHome).filter((file) => file.endsWith('.part'))).toEqual([]);
      expect(filesUnder(e2e.outputDir).filter((file) => !/\.(jpg|png|mp4)$/.test(file))).toEqual([]);
    } finally {
      victim.killGroup();
      e2e.sim.scenario.clearFailures();
    }
  }, 150_000);
});
