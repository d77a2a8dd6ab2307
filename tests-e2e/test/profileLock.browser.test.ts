// Journey 5: processes on one profile (issue 38: a busy profile queues work instead of failing).
// While one CLI generation holds the profile (its submit is stuck in Flow), a second CLI run waits
// in line by default, its progress naming the task it is queued behind, and succeeds once the
// first ends; with GFLOW_CLI_LEASE_WAIT_SECONDS=0 it fails fast with exit 11 (ProfileLockedError).
// Four generations started together all complete, one after another.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makePng } from '@gflow/flow-sim';
import { taskRow, taskRows } from './helpers/catalog.js';
import { json, waitFor } from '@gflow/testkit';
import type { CliChild } from '@gflow/testkit/cli';
import { SANDBOX_EMAIL, submits, useSandbox } from '@gflow/testkit/sandbox';

const e2e = useSandbox({ seed: 'journey-profile-lock', signIn: true });

/** The "queued behind" messages of a run's progress (--progress jsonl on stderr). */
function waitingLines(stderr: string): string[] {
  return progressEvents(stderr)
    .filter((event) => event.phase === 'waiting-for-profile')
    .map((event) => String(event.message));
}

function progressEvents(stderr: string): Array<{ phase: string; at: string; message?: string }> {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{"type":"progress"'))
    .map((line) => JSON.parse(line) as { phase: string; at: string; message?: string });
}

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

describe('journey 5: processes on one profile wait in line', () => {
  it('a second run waits in line by default, saying which task it is queued behind; only a lease wait of 0 fails fast', async () => {
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
      const holderTask = taskRows(e2e.dbPath).find((row) => row.status === 'working')?.task_id;
      expect(holderTask).toBeDefined();

      const refused = await e2e.cli(['image', 't2i', 'the impatient one', '--sandbox', '--json'], {
        env: { GFLOW_CLI_LEASE_WAIT_SECONDS: '0' },
      });
      const out = json(refused);
      // The task was recorded, then refused: {status: failed, task_id, error: problem}.
      expect(out['status']).toBe('failed');
      const problem = out['error'] as Record<string, unknown>;
      expect(refused.exitCode, JSON.stringify(out)).toBe(11);
      expect(problem).toMatchObject({ type: 'https://gflow.dev/errors/profile-locked', status: 409, retryable: false });
      // Refused at once: with a lease wait of 0 the problem names no wait (a waited one says how long).
      expect(String(problem['detail'])).not.toContain('after waiting');
      expect(submits(e2e.sim)).toEqual([holderSubmit]);

      // The defaults: no lease wait set; the waiter's progress names the task it waits behind.
      waiter = e2e.spawn([
        'image',
        't2i',
        'the patient one',
        '--aspect',
        '1:1',
        '--sandbox',
        '--json',
        '--progress',
        'jsonl',
      ]);
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
      const line = waitingLines(waited.stderr)[0];
      expect(line).toMatch(
        new RegExp(
          `^Queued behind task ${holderTask} \\(profile "sandbox"; gflow CLI, pid ${holder.pid}, Generate videos \\(gflow_generate_video\\)\\), waiting up to 600 s\\.$`,
        ),
      );
    } finally {
      holder.killGroup();
      waiter?.killGroup();
      e2e.sim.scenario.clearFailures();
    }
  }, 150_000);

  it('four generations started together on one profile all complete, one after another', async () => {
    e2e.sim.received.clear();
    const runs = ['one', 'two', 'three', 'four'].map((name) =>
      e2e.spawn([
        'image',
        't2i',
        `started together: ${name}`,
        '--aspect',
        '1:1',
        '--sandbox',
        '--json',
        '--progress',
        'jsonl',
      ]),
    );
    const results = await Promise.all(runs.map((run) => run.done));
    for (const r of results) expect(r.exitCode, r.stdout + r.stderr.slice(-1500)).toBe(0);
    for (const r of results) expect(json(r)).toMatchObject({ status: 'completed' });
    expect(submits(e2e.sim)).toEqual(['ogiZ0b', 'ogiZ0b', 'ogiZ0b', 'ogiZ0b']);
    // They lined up: whoever found the profile busy waited (never refused), its progress naming
    // the task of another of the four it was queued behind, then ran once that one was done. A
    // holder that has just taken the profile has not yet said who it is (its record beside the
    // lock follows the lock), so a waiter's first line may say "another gflow process"; the line
    // names the task as soon as the record is there.
    const ids = results.map((r) => String(json(r)['task_id']));
    const waiters = results.filter((r) => waitingLines(r.stderr).length > 0);
    expect(waiters.length).toBeGreaterThanOrEqual(1);
    const naming = /^Queued behind task ([\w-]+) \(profile "sandbox"; gflow CLI, pid \d+/;
    for (const r of waiters) {
      const behind = waitingLines(r.stderr)
        .map((line) => naming.exec(line))
        .find((match) => match !== null);
      expect(behind, r.stderr.slice(-1500)).toBeDefined();
      expect(ids).toContain(behind?.[1]);
      expect(behind?.[1]).not.toBe(json(r)['task_id']);
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
      // The CLI's own budget ends it (the driver's fallback is 180 s): its problem names the budget
      // it ran out of, so no clock of this test's decides (a hang ends at the test's timeout).
      const ended = await stuck.done;
      const out = json(ended);
      expect(ended.exitCode, JSON.stringify(out)).toBe(9);
      expect(String((out['error'] as Record<string, unknown>)['detail'])).toContain('GFLOW_CLI_TIMEOUT_SECONDS (10 s)');
      expectTimedOutAfterSubmit(out);
    } finally {
      stuck.killGroup();
      e2e.sim.scenario.clearFailures();
    }
  }, 240_000);

  it('GFLOW_CLI_TIMEOUT_SECONDS bounds the phases before the submit too: a stalled upload is exit 9, retryable, nothing submitted', async () => {
    e2e.sim.received.clear();
    e2e.sim.scenario.setFailure(SANDBOX_EMAIL, 'stuck_upload', { times: 1 });
    const frame = path.join(e2e.home, 'stall-frame.png');
    fs.writeFileSync(frame, makePng(640, 360, 'stall'));
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
  }, 120_000);
});
