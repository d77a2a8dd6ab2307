import { describe, expect, it } from 'vitest';
import { claimantPidIsAlive, formatClaimant } from '../index.js';
import { parseClaimant } from './claimant.js';
import { memoryCatalog } from '../../test/helpers.js';

const DEAD = 'mcp:alice:4000001:dead';
const LIVE = 'mcp:alice:4000002:live';

function working(c: ReturnType<typeof memoryCatalog>, claimant: string, spent: boolean): string {
  const t = c.tasks.create({ profile: 'alice', taskType: 't2v', payload: {} });
  c.tasks.claim(t.taskId, claimant);
  if (spent) c.tasks.updateCheckpoint(t.taskId, claimant, { phase: 'submitted', may_have_spent: true });
  return t.taskId;
}

describe('settle at startup', () => {
  it('settles only dead claimants: indeterminate when may_have_spent, else failed', () => {
    const c = memoryCatalog();
    const spent = working(c, DEAD, true);
    const unspent = working(c, DEAD, false);
    const live = working(c, LIVE, true);
    const pending = c.tasks.create({ profile: 'alice', taskType: 't2i', payload: {} }).taskId;
    const done = working(c, DEAD, false);
    c.tasks.complete(done, DEAD, { ok: true });

    const result = c.tasks.settleAbandoned({ liveClaimants: [LIVE] });
    expect(result).toEqual({ indeterminate: [spent], failed: [unspent], cancelled: [], requeued: [] });
    expect(c.tasks.get(spent)).toMatchObject({ status: 'indeterminate', error: { exit_code: 1, retryable: false } });
    expect(c.tasks.get(spent)?.error?.['type']).toMatch(/daemon-recovery/);
    expect(c.tasks.get(unspent)).toMatchObject({ status: 'failed', error: { retryable: true } });
    expect(c.tasks.get(live)?.status).toBe('working');
    expect(c.tasks.get(pending)?.status).toBe('pending');
    expect(c.tasks.get(done)?.status).toBe('completed');
    // Idempotent.
    expect(c.tasks.settleAbandoned({ liveClaimants: [LIVE] })).toEqual({
      indeterminate: [],
      failed: [],
      cancelled: [],
      requeued: [],
    });
  });

  it('a row settled after its submit names the project and the media Flow named, in words and as ids (issue 41)', () => {
    const c = memoryCatalog();
    const t = c.tasks.create({ profile: 'alice', taskType: 't2v', payload: {} });
    c.tasks.claim(t.taskId, DEAD);
    c.tasks.updateCheckpoint(t.taskId, DEAD, {
      phase: 'generating',
      may_have_spent: true,
      project_id: 'p-1',
      media_ids: ['m-1', 'm-2'],
    });
    c.tasks.settleAbandoned({ liveClaimants: [] });
    const error = c.tasks.get(t.taskId)?.error ?? {};
    expect(error['detail']).toContain('Flow project p-1, media m-1, m-2');
    expect(error).toMatchObject({ flow_project_id: 'p-1', flow_media_ids: ['m-1', 'm-2'] });
  });

  it('takes a predicate; an unreadable checkpoint counts as may_have_spent', () => {
    const c = memoryCatalog();
    const a = working(c, DEAD, false);
    const b = working(c, LIVE, false);
    c.database.prepare("UPDATE generation_queue SET checkpoint_json = '{broken' WHERE task_id = ?").run(a);
    const seen: string[] = [];
    const result = c.tasks.settleAbandoned({ isAlive: (claimant) => (seen.push(claimant), claimant === LIVE) });
    expect(result).toEqual({ indeterminate: [a], failed: [], cancelled: [], requeued: [] });
    expect(seen.sort()).toEqual([DEAD, LIVE].sort());
    expect(c.tasks.get(b)?.status).toBe('working');
  });

  it('queues a background task again when its process died before the submit, never one that may have spent', () => {
    const c = memoryCatalog();
    const background = { input: { wait: false } };
    const requeue = (payload: Readonly<Record<string, unknown>>): boolean =>
      (payload['input'] as { wait?: unknown } | undefined)?.wait === false;
    const make = (payload: Record<string, unknown>, spent: boolean): string => {
      const t = c.tasks.create({ profile: 'alice', taskType: 't2i', payload });
      c.tasks.claim(t.taskId, DEAD);
      c.tasks.updateCheckpoint(t.taskId, DEAD, { phase: 'configuring', project_id: 'p1', may_have_spent: spent });
      return t.taskId;
    };
    const unspent = make(background, false);
    const spent = make(background, true);
    const waited = make({ input: { wait: true } }, false);
    const stopped = make(background, false);
    c.tasks.cancel(stopped);

    const result = c.tasks.settleAbandoned({ liveClaimants: [] }, { requeue });
    expect(result).toEqual({ indeterminate: [spent], failed: [waited], cancelled: [stopped], requeued: [unspent] });
    expect(c.tasks.get(unspent)).toMatchObject({
      status: 'pending',
      claimant: null,
      claimedAt: null,
      error: null,
      checkpoint: { phase: 'requeued', requeues: 1, may_have_spent: false, project_id: 'p1' },
    });
    expect(c.tasks.get(stopped)).toMatchObject({ status: 'cancelled', error: null });

    // A claim keeps the count; a process that dies again before the submit queues it again, up to the bound.
    for (const expected of [2, 3]) {
      expect(c.tasks.claimNext('alice', DEAD)?.checkpoint).toMatchObject({ phase: 'claimed', requeues: expected - 1 });
      expect(c.tasks.settleAbandoned({ liveClaimants: [] }, { requeue }).requeued).toEqual([unspent]);
      expect(c.tasks.get(unspent)?.checkpoint?.requeues).toBe(expected);
    }
    c.tasks.claimNext('alice', DEAD);
    expect(c.tasks.settleAbandoned({ liveClaimants: [] }, { requeue })).toMatchObject({ failed: [unspent] });
    expect(c.tasks.get(unspent)).toMatchObject({ status: 'failed', error: { retryable: true } });
    expect(String(c.tasks.get(unspent)?.error?.['detail'])).toContain('queued again 3 times');
  });

  it('a pending task names the process handing it over until a claim replaces it', () => {
    const c = memoryCatalog();
    const t = c.tasks.create({ profile: 'alice', taskType: 't2i', payload: {} });
    expect(c.tasks.noteHandover(t.taskId, LIVE)).toBe(true);
    expect(c.tasks.get(t.taskId)).toMatchObject({ status: 'pending', claimant: LIVE });
    expect(c.tasks.claimNext('alice', DEAD)).toMatchObject({ status: 'working', claimant: DEAD });
    expect(c.tasks.noteHandover(t.taskId, LIVE)).toBe(false);
    expect(c.tasks.get(t.taskId)?.claimant).toBe(DEAD);
  });

  // An exited process is dead too: test/claimantPid.test.ts (it starts one; the tests beside the code start none).
  it('formats and parses claimants; the pid check sees this process alive', () => {
    const parts = { surface: 'mcp', profile: 'alice', pid: process.pid, startToken: 'abc123' };
    const claimant = formatClaimant(parts);
    expect(claimant).toBe(`mcp:alice:${process.pid}:abc123`);
    expect(parseClaimant(claimant)).toEqual(parts);
    expect(parseClaimant('garbage')).toBeUndefined();
    expect(claimantPidIsAlive(claimant)).toBe(true);
    expect(claimantPidIsAlive('not-a-claimant')).toBe(false);
  });
});
