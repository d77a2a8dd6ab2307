// Journey 5: two processes on one profile. While one CLI generation holds the
// profile (its submit is stuck in Flow), a second CLI run fails fast with exit
// 11 (ProfileLockedError); with GFLOW_CLI_LEASE_WAIT_SECONDS=60 the second
// waits for the first to end and then succeeds.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makePng } from '@gflow/flow-sim';
import { taskRow } from './helpers/catalog.js';
import { json, waitFor } from '@gflow/testkit';
import type { CliChild } from '@gflow/testkit/cli';
import { SANDBOX_EMAIL, submits, useSandbox } from '@gflow/testkit/sandbox';

const e2e = useSandbox({ seed: 'journey-profile-lock', signIn: true });

/** A generation that timed out after its submit: a timeout problem flagged may_have_spent, its task row settled. */
function expectTimedOutAfterSubmit(out: Record<string, unknown>): void {
  // Not retryable: the submit reached Flow, so a blind retry may pay twice.
  expect(out).toMatchObject({
    status: 'failed',
    error: {
      type: expect.stringMatching(/^https:\/\/gflow\.dev\/errors\/(transport-)?timeout$/),
      retryable: false,
      may_have_spent: true,
    },
  });
  expect(['failed', 'indeterminate']).toContain(taskRow(e2e.dbPath, String(out['task_id']))?.status);
}

describe('journey 5: two processes on one profile', () => {
  it('the second run fails fast with exit 11; with a lease wait it waits, then succeeds', async () => {
    e2e.sim.received.clear();
    // The holder's video stays at "generating" forever: it holds the profile until its 15 s timeout.
    e2e.sim.scenario.setFailure(SANDBOX_EMAIL, 'stuck_generation', { times: 1 });
    const holder = e2e.spawn(['video', 't2v', 'the holder', '--sandbox', '--json'], {
      env: { GFLOW_CLI_TIMEOUT_SECONDS: '15' },
    });
    let waiter: CliChild | undefined;
    try {
      await waitFor('the holder to submit', () => submits(e2e.sim).length === 1, 60_000);
      const holderSubmit = submits(e2e.sim)[0];
      expect(['YhhmEf']).toContain(holderSubmit);

      const refused = await e2e.cli(['image', 't2i', 'the impatient one', '--sandbox', '--json']);
      const out = json(refused);
      // The task was recorded, then refused: {status: failed, task_id, error: problem}.
      expect(out['status']).toBe('failed');
      const problem = out['error'] as Record<string, unknown>;
      expect(refused.exitCode, JSON.stringify(out)).toBe(11);
      expect(problem).toMatchObject({ type: 'https://gflow.dev/errors/profile-locked', status: 409, retryable: false });
      expect(refused.ms, 'a locked profile is refused at once (CLI lease wait 0 s)').toBeLessThan(15_000);
      expect(submits(e2e.sim)).toEqual([holderSubmit]);

      waiter = e2e.spawn(['image', 't2i', 'the patient one', '--aspect', '1:1', '--sandbox', '--json'], {
        env: { GFLOW_CLI_LEASE_WAIT_SECONDS: '60' },
      });
      let waiterDone = false;
      void waiter.done.then(() => (waiterDone = true));

      const held = await holder.done;
      // The holder timed out after its submit: exit 9, a settled task, and the problem says a credit may be spent.
      expect(held.exitCode, held.stdout + held.stderr.slice(-1500)).toBe(9);
      expectTimedOutAfterSubmit(json(held));
      expect(waiterDone, 'the waiter must still be waiting when the holder ends').toBe(false);
      expect(submits(e2e.sim)).toEqual([holderSubmit]);

      const waited = await waiter.done;
      expect(waited.exitCode, waited.stdout + waited.stderr.slice(-1500)).toBe(0);
      expect(json(waited)).toMatchObject({ status: 'completed' });
      expect(submits(e2e.sim)).toEqual([holderSubmit, 'ogiZ0b']);
    } finally {
      holder.killGroup();
      waiter?.killGroup();
      e2e.sim.scenario.clearFailures();
    }
  }, 150_000);

  it('GFLOW_CLI_TIMEOUT_SECONDS bounds an image generation whose submit Flow never answers (exit 9)', async () => {
    e2e.sim.received.clear();
    e2e.sim.scenario.setFailure(SANDBOX_EMAIL, 'stuck_generation', { times: 1 });
    const stuck = e2e.spawn(['image', 't2i', 'never answered', '--sandbox', '--json'], {
      env: { GFLOW_CLI_TIMEOUT_SECONDS: '10' },
    });
    try {
      await waitFor('the image submit', () => submits(e2e.sim).length === 1, 60_000);
      const submittedAt = Date.now();
      // 10 s budget plus generous slack; the driver's own fallback is 180 s.
      const ended = await Promise.race([
        stuck.done,
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 30_000)),
      ]);
      expect(
        ended,
        `gflow was still waiting ${Math.round((Date.now() - submittedAt) / 1000)} s after the submit with GFLOW_CLI_TIMEOUT_SECONDS=10`,
      ).toBeDefined();
      const out = json(ended!);
      expect(ended!.exitCode, JSON.stringify(out)).toBe(9);
      expectTimedOutAfterSubmit(out);
    } finally {
      stuck.killGroup();
      e2e.sim.scenario.clearFailures();
    }
  }, 120_000);

  it('GFLOW_CLI_TIMEOUT_SECONDS bounds the phases before the submit too: a stalled upload is exit 9, retryable, nothing submitted', async () => {
    e2e.sim.received.clear();
    e2e.sim.scenario.setFailure(SANDBOX_EMAIL, 'stuck_upload', { times: 1 });
    const frame = path.join(e2e.home, 'stall-frame.png');
    fs.writeFileSync(frame, makePng(640, 360, 'stall'));
    const started = Date.now();
    const r = await e2e.cli(
      ['video', 'i2v', 'the frame never arrives', '--initial-frame', frame, '--sandbox', '--json'],
      {
        env: { GFLOW_CLI_TIMEOUT_SECONDS: '8' },
        timeoutMs: 90_000,
      },
    );
    e2e.sim.scenario.clearFailures();
    const out = json(r);
    expect(r.exitCode, JSON.stringify(out)).toBe(9);
    expect(out).toMatchObject({
      status: 'failed',
      error: {
        type: 'https://gflow.dev/errors/transport-timeout',
        retryable: true,
        may_have_spent: false,
        detail: expect.stringMatching(/within GFLOW_CLI_TIMEOUT_SECONDS \(8 s\).*nothing was sent to Flow/),
      },
    });
    expect(e2e.sim.received.calls('maseQ').length).toBeGreaterThan(0);
    expect(submits(e2e.sim)).toEqual([]);
    expect(taskRow(e2e.dbPath, String(out['task_id']))?.status).toBe('failed');
    // Bounded by the deadline, not by a driver step's own (much longer) wait.
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 120_000);
});
