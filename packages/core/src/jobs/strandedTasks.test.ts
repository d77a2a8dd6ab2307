// Who answers for a queued task, and picking up the ones nobody does (issue 38), with a real
// catalog and real worker locks in a temp home. A lock this process holds stands for another
// worker (the kernel lock refuses a second holder in the same process too); claimants name
// pids that are alive (this process) or not (a pid no process has).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tryNamedLock } from '@gflow/lease';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGflow } from '../runtime/createGflow.js';
import type { Gflow } from '../runtime/gflow.js';
import type { Logger } from '../runtime/logger.js';
import { isBackgroundTask, liveQueueWorker, ownerOf, queueIsOwned, workerLockName } from './queueOwner.js';
import { findStrandedTasks, pickUpStrandedTasks, pickedUpNotice, settleDeadClaims } from './strandedTasks.js';

let home: string;
let gflow: Gflow;
let locksDir: string;

beforeEach(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-stranded-'));
  gflow = await createGflow({ surface: 'library', env: { GFLOW_CLI_HOME: home }, cwd: home }).ready();
  locksDir = gflow.layout.locksDir;
});

afterEach(async () => {
  await gflow.close();
  fs.rmSync(home, { recursive: true, force: true });
});

const LIVE = `cli:alice:${process.pid}:live`;
const DEAD = 'worker:alice:2147483646:dead';
const isAlive = (claimant: string): boolean => claimant === LIVE;

function queue(profile: string, wait: boolean): string {
  return gflow.catalog.tasks.create({ profile, taskType: 't2i', payload: { input: { prompt: 'p', wait } } }).taskId;
}

function silentLogger(lines: string[] = []): Logger {
  const keep = (message: string): void => void lines.push(message);
  return { debug: keep, info: keep, warn: keep, error: keep };
}

describe('who answers for a task', () => {
  it('a background task is one asked with wait=false; anything else is not', () => {
    expect(isBackgroundTask({ input: { wait: false } })).toBe(true);
    expect(isBackgroundTask({ input: { wait: true } })).toBe(false);
    expect(isBackgroundTask({ input: {} })).toBe(false);
    expect(isBackgroundTask({ input: 'nonsense' })).toBe(false);
    expect(isBackgroundTask({})).toBe(false);
  });

  it("reads the live worker from its lock's record, with the task it runs, without touching the lock", async () => {
    expect(await liveQueueWorker(locksDir, 'alice')).toBeUndefined();
    const lock = tryNamedLock(locksDir, workerLockName('alice'), { profileName: 'alice', surface: 'worker' });
    expect(await liveQueueWorker(locksDir, 'alice')).toMatchObject({ surface: 'worker', pid: process.pid });
    lock?.setActivity({ state: 'busy', doing: 'task 6f1c-aa' });
    expect((await liveQueueWorker(locksDir, 'alice'))?.runningTaskId).toBe('6f1c-aa');
    expect(await queueIsOwned(locksDir, 'alice')).toBe(true);
    lock?.release();
    expect(await liveQueueWorker(locksDir, 'alice')).toBeUndefined();
    expect(await queueIsOwned(locksDir, 'alice')).toBe(false);
    // Nor does a record naming a live process (a reused pid: this one) while the lock is free.
    fs.writeFileSync(
      path.join(locksDir, 'worker-alice.holder.json'),
      JSON.stringify({
        version: 1,
        pid: process.pid,
        process_start_time: '2026-01-01T00:00:00.000Z',
        profile_name: 'alice',
        hostname: os.hostname(),
        acquired_at: '2026-01-01T00:00:00.000Z',
        owner_token: 'stale',
        surface: 'worker',
      }),
      { mode: 0o600 },
    );
    expect(await liveQueueWorker(locksDir, 'alice')).toBeUndefined();
    expect(await queueIsOwned(locksDir, 'alice')).toBe(false);
  });

  it('a lock held without a record still owns the queue; a record whose process is gone does not', async () => {
    const plain = tryNamedLock(locksDir, workerLockName('alice'));
    expect(await queueIsOwned(locksDir, 'alice')).toBe(true);
    plain?.release();
    // A killed worker's record stays behind as text, naming a pid that no longer runs.
    fs.writeFileSync(
      path.join(locksDir, 'worker-alice.holder.json'),
      JSON.stringify({
        version: 1,
        pid: 2147483646,
        process_start_time: '2026-01-01T00:00:00.000Z',
        profile_name: 'alice',
        hostname: os.hostname(),
        acquired_at: '2026-01-01T00:00:00.000Z',
        owner_token: 'gone',
        surface: 'worker',
      }),
      { mode: 0o600 },
    );
    expect(await liveQueueWorker(locksDir, 'alice')).toBeUndefined();
    expect(await queueIsOwned(locksDir, 'alice')).toBe(false);
    // Nor does a record naming a live process (a reused pid: this one) while the lock is free.
    fs.writeFileSync(
      path.join(locksDir, 'worker-alice.holder.json'),
      JSON.stringify({
        version: 1,
        pid: process.pid,
        process_start_time: '2026-01-01T00:00:00.000Z',
        profile_name: 'alice',
        hostname: os.hostname(),
        acquired_at: '2026-01-01T00:00:00.000Z',
        owner_token: 'stale',
        surface: 'worker',
      }),
      { mode: 0o600 },
    );
    expect(await liveQueueWorker(locksDir, 'alice')).toBeUndefined();
    expect(await queueIsOwned(locksDir, 'alice')).toBe(false);
  });

  it('names the owner: running, queued behind a live worker, being handed over, or nobody', async () => {
    const tasks = gflow.catalog.tasks;
    const running = queue('alice', false);
    tasks.claim(running, LIVE);
    expect(await ownerOf(tasks.get(running)!, locksDir, isAlive)).toEqual({
      state: 'running',
      by: { surface: 'cli', pid: process.pid },
    });
    const orphan = queue('alice', false);
    tasks.claim(orphan, DEAD);
    expect(await ownerOf(tasks.get(orphan)!, locksDir, isAlive)).toEqual({
      state: 'none',
      was: { surface: 'worker', pid: 2147483646 },
    });

    const pending = queue('alice', false);
    expect(await ownerOf(tasks.get(pending)!, locksDir, isAlive)).toEqual({ state: 'none' });
    tasks.noteHandover(pending, LIVE);
    expect((await ownerOf(tasks.get(pending)!, locksDir, isAlive)).state).toBe('handing-over');
    const lock = tryNamedLock(locksDir, workerLockName('alice'), { profileName: 'alice', surface: 'worker' });
    expect(await ownerOf(tasks.get(pending)!, locksDir, isAlive)).toMatchObject({
      state: 'queued',
      worker: { pid: process.pid, surface: 'worker' },
    });
    lock?.release();
    tasks.cancel(pending);
    expect(await ownerOf(tasks.get(pending)!, locksDir, isAlive)).toEqual({ state: 'settled' });
  });
});

describe('stranded tasks', () => {
  it('are pending background tasks that no live process hands over and no live worker drains, oldest first', async () => {
    const first = queue('alice', false);
    const second = queue('alice', false);
    queue('alice', true); // a waited task is its caller's, never picked up
    const handedOver = queue('alice', false);
    gflow.catalog.tasks.noteHandover(handedOver, LIVE);
    const bobs = queue('bob', false);
    const leftByDead = queue('bob', false);
    gflow.catalog.tasks.noteHandover(leftByDead, DEAD);

    const found = await findStrandedTasks(gflow.queue, locksDir, isAlive);
    expect(found.map((t) => t.taskId)).toEqual([first, second, bobs, leftByDead]);
    expect(found[0]).toMatchObject({ profile: 'alice', requeued: false, queuedAt: expect.any(String) });

    // A live worker drains alice's queue: hers are its, not stranded.
    const lock = tryNamedLock(locksDir, workerLockName('alice'), { profileName: 'alice', surface: 'worker' });
    expect((await findStrandedTasks(gflow.queue, locksDir, isAlive)).map((t) => t.taskId)).toEqual([bobs, leftByDead]);
    expect((await findStrandedTasks(gflow.queue, locksDir, isAlive, 'alice')).map((t) => t.taskId)).toEqual([]);
    lock?.release();
  });

  it('a task whose process died before its submit is queued again and picked up; one that may have spent never is', async () => {
    const tasks = gflow.catalog.tasks;
    const unspent = queue('alice', false);
    tasks.claim(unspent, DEAD);
    tasks.updateCheckpoint(unspent, DEAD, { phase: 'configuring' });
    const spent = queue('alice', false);
    tasks.claim(spent, DEAD);
    tasks.updateCheckpoint(spent, DEAD, { phase: 'submitting', may_have_spent: true });

    const said: string[] = [];
    const note = (level: string) => (message: string) => void said.push(`${level}: ${message}`);
    const logger: Logger = { debug: note('debug'), info: note('info'), warn: note('warn'), error: note('error') };
    expect(await settleDeadClaims(gflow.queue, isAlive, logger)).toEqual([unspent]);
    expect(tasks.get(spent)?.status).toBe('indeterminate');
    // Each is said; the one queued again only at debug (its pick-up says it to the user).
    expect(said.sort()).toEqual([
      `debug: The process running task ${unspent} had stopped; the task is now pending again (it had not reached its submit).`,
      `info: The process running task ${spent} had stopped; the task is now indeterminate (its submit may have been sent; it is never run again).`,
    ]);
    const found = await findStrandedTasks(gflow.queue, locksDir, isAlive);
    expect(found).toEqual([expect.objectContaining({ taskId: unspent, requeued: true })]);
    expect(pickedUpNotice(found[0]!, 'a new background worker')).toMatch(
      new RegExp(
        `^Picked up task ${unspent} \\(profile "alice"\\) queued at \\S+: the process running it had stopped before its submit \\(nothing was spent\\); a new background worker runs it now\\.$`,
      ),
    );
  });

  it('picking up starts one runner per profile and says so for every task', async () => {
    const a1 = queue('alice', false);
    const a2 = queue('alice', false);
    const b1 = queue('bob', false);
    const started: string[] = [];
    const lines: string[] = [];
    const picked = await pickUpStrandedTasks({
      queue: gflow.queue,
      locksDir,
      isAlive,
      logger: silentLogger(lines),
      runner: {
        who: (profile) => `a worker for ${profile}`,
        start: (profile, first) => void started.push(`${profile} ${first}`),
      },
    });
    expect(picked.map((t) => t.taskId)).toEqual([a1, a2, b1]);
    expect(started).toEqual([`alice ${a1}`, `bob ${b1}`]);
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Picked up task ${a1} .*its worker had stopped before taking it; a worker for alice runs it now\\.$`,
        ),
      ),
      expect.stringContaining(`Picked up task ${a2} `),
      expect.stringContaining(`Picked up task ${b1} `),
    ]);
  });
});
