// A long phase is not silence (issue 27, "silence while waiting"): while Flow generates a clip
// for longer than the heartbeat, the job repeats its phase with the time taken, and the task
// row's updated_at keeps moving — what a client that resets its timeout on progress, or a
// reader of tasks/get's lastUpdatedAt, needs to see the job alive.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEARTBEAT_MS } from '../src/generation/clock.js';
import type { ProgressEvent } from '../src/runtime/progressPhases.js';
import type { Gflow } from '../src/runtime/gflow.js';
import { signInProfile, useHarness } from './simHarness.js';

const EMAIL = 'heartbeat@example.com';
const h = useHarness();
let gflow: Gflow;

beforeAll(async () => {
  h.sim.scenario.createAccount({ email: EMAIL, credits: 1_000 });
  gflow = h.gflow('library');
  await gflow.ready();
  await signInProfile(gflow, h.sim, 'beat', EMAIL);
}, 120_000);
afterAll(async () => {
  h.sim.scenario.setLatency('fast');
  await gflow?.close();
});

describe('heartbeat', () => {
  it('repeats the generating phase with its elapsed time, and the task row moves, while Flow works', async () => {
    // Flow takes ~38 s for a clip; at this scale about 11 s, more than two heartbeats.
    h.sim.scenario.setLatency(0.3);
    const events: Array<ProgressEvent & { at: number }> = [];
    const updates: string[] = [];
    let taskId: string | undefined;
    const poll = setInterval(() => {
      const id = taskId ?? gflow.catalog.tasks.list({ limit: 1 }).items[0]?.taskId;
      const row = id === undefined ? undefined : gflow.catalog.tasks.get(id);
      if (row && row.status === 'working' && updates.at(-1) !== row.updatedAt) updates.push(row.updatedAt);
    }, 500);
    try {
      const result = (await gflow.run(
        'generateVideo',
        { prompt: 'a tide pool at dawn', profile: 'beat' },
        { onProgress: (e) => void events.push({ ...e, at: Date.now() }) },
      )) as { status: string; task_id: string };
      taskId = result.task_id;
      expect(result.status).toBe('completed');
    } finally {
      clearInterval(poll);
    }
    // The first event names the task, so an aborted call still knows what to look up.
    expect(events[0]).toMatchObject({ phase: 'queued', message: `task ${taskId}` });
    const beats = events.filter((e) => /^still /.test(e.message ?? ''));
    expect(beats.length, JSON.stringify(events.map((e) => [e.phase, e.message]))).toBeGreaterThanOrEqual(1);
    expect(beats[0]?.message).toMatch(/^still [a-z ]+ \(\d+ s\)$/);
    // A heartbeat answers silence only: each one follows at least HEARTBEAT_MS without an event.
    for (const beat of beats) {
      const before = events[events.indexOf(beat) - 1];
      expect(beat.at - (before?.at ?? 0)).toBeGreaterThanOrEqual(HEARTBEAT_MS - 50);
    }
    expect(updates.length).toBeGreaterThanOrEqual(3);
  }, 180_000);
});
