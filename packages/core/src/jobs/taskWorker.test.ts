// drainTaskQueue with a real catalog (a temp home) and fake sessions, lock and job: the order it
// claims in, one worker per profile, the last look after releasing the lock, the profile taken
// before a claim, a crashed job settled, and a stop. The worker process itself (gflow worker run,
// detached by --no-wait) is tested end to end in tests-e2e/test/backgroundWorker.browser.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TaskRecord } from '@gflow/catalog';
import { ProfileLockedError } from '@gflow/errors';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGflow } from '../runtime/createGflow.js';
import type { Gflow } from '../runtime/gflow.js';
import type { BrowserSessions, RuntimeServices } from '../runtime/runtimeServices.js';
import { type DrainQueueOptions, type WorkerLock, drainTaskQueue } from './taskWorker.js';

let home: string;
let gflow: Gflow;
let events: string[];

beforeEach(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-worker-'));
  for (const name of ['alice', 'bob']) fs.mkdirSync(path.join(home, `profile_${name}`));
  gflow = await createGflow({ surface: 'library', env: { GFLOW_CLI_HOME: home }, cwd: home }).ready();
  events = [];
});

afterEach(async () => {
  await gflow.close();
  fs.rmSync(home, { recursive: true, force: true });
});

const CLAIMANT = 'worker:alice:1:test';

/** Sessions that only record when the profile was taken; `refuse` lease attempts fail as busy. */
function sessions(refuse = 0): BrowserSessions {
  let refusals = refuse;
  return {
    async withSession(profile, _use, fn) {
      events.push(`profile ${profile.name}`);
      if (refusals > 0) {
        refusals -= 1;
        throw new ProfileLockedError('busy');
      }
      return fn(undefined as never);
    },
    withProfileExclusive: (_profile, _use, fn) => fn(),
  };
}

function runtime(browser: BrowserSessions = sessions()): RuntimeServices {
  return {
    ...({} as RuntimeServices),
    settings: gflow.settings,
    layout: gflow.layout,
    logger: gflow.logger,
    catalog: gflow.catalog,
    queue: gflow.queue,
    sessions: browser,
    claimantFor: () => CLAIMANT,
  };
}

/** A lock of one holder; `onRelease` runs as it is released (what another process does meanwhile). */
function lockBox(onRelease?: () => void) {
  const box = { held: false, taken: 0, foreign: false };
  const tryLock = (): WorkerLock | undefined => {
    if (box.held || box.foreign) return undefined;
    box.held = true;
    box.taken += 1;
    return {
      release: () => {
        if (!box.held) return;
        box.held = false;
        events.push('lock released');
        onRelease?.();
      },
    };
  };
  return { box, tryLock };
}

function queue(profile: string, prompt: string): string {
  return gflow.catalog.tasks.create({ profile, taskType: 't2i', payload: { kind: 'image', prompt } }).taskId;
}

/** A job that completes its row and records what ran. */
function completing(record: TaskRecord): Promise<unknown> {
  events.push(`run ${String(record.payload['prompt'])}`);
  gflow.catalog.tasks.complete(record.taskId, CLAIMANT, { status: 'completed', task_id: record.taskId });
  return Promise.resolve();
}

function options(overrides: Partial<DrainQueueOptions> & Pick<DrainQueueOptions, 'tryLock'>): DrainQueueOptions {
  return {
    profile: 'alice',
    signal: new AbortController().signal,
    idleMs: 0,
    pollMs: 5,
    runTask: completing,
    ...overrides,
  };
}

describe('drainTaskQueue', () => {
  it("runs the profile's pending tasks oldest first, each after taking the profile, then releases its lock", async () => {
    const a = queue('alice', 'first');
    const b = queue('alice', 'second');
    const other = queue('bob', 'not mine');
    const { box, tryLock } = lockBox();
    const report = await drainTaskQueue(runtime(), options({ tryLock }));
    expect(report).toEqual({ ran: [a, b], reason: 'drained' });
    expect(events).toEqual(['profile alice', 'run first', 'profile alice', 'run second', 'lock released']);
    expect(box.held).toBe(false);
    expect(gflow.catalog.tasks.get(a)?.status).toBe('completed');
    expect(gflow.catalog.tasks.get(other)?.status).toBe('pending');
  });

  it('leaves at once, claiming nothing, when another worker holds the lock', async () => {
    const a = queue('alice', 'first');
    const { box, tryLock } = lockBox();
    box.foreign = true;
    expect(await drainTaskQueue(runtime(), options({ tryLock, lockGraceMs: 20 }))).toEqual({
      ran: [],
      reason: 'another-worker',
    });
    expect(gflow.catalog.tasks.get(a)?.status).toBe('pending');
    expect(events).toEqual([]);
  });

  it('looks at the queue once more after releasing, and takes the lock back for a task queued meanwhile', async () => {
    let late: string | undefined;
    // While this worker held the lock, another CLI queued a task and its worker found the lock held.
    const { box, tryLock } = lockBox(() => (late ??= queue('alice', 'queued while the lock was held')));
    const report = await drainTaskQueue(runtime(), options({ tryLock }));
    expect(report).toEqual({ ran: [late], reason: 'drained' });
    expect(box.taken).toBe(2);
    expect(gflow.catalog.tasks.get(late as string)?.status).toBe('completed');
  });

  it('runs a task queued during the idle grace, in the same pass', async () => {
    const controller = new AbortController();
    const runTask = (record: TaskRecord): Promise<unknown> => completing(record).finally(() => controller.abort());
    const drained = drainTaskQueue(
      runtime(),
      options({ tryLock: lockBox().tryLock, idleMs: 60_000, runTask, signal: controller.signal }),
    );
    // The queue is empty: the worker is in its idle grace (a minute) when this task arrives.
    const late = queue('alice', 'during the grace');
    expect(await drained).toEqual({ ran: [late], reason: 'stopped' });
    expect(gflow.catalog.tasks.get(late)?.status).toBe('completed');
  });

  it('does not claim while the profile is busy: the lease is waited for again, then the task runs', async () => {
    const a = queue('alice', 'behind a busy profile');
    const seen: Array<string | undefined> = [];
    const browser = sessions(2);
    const watching: BrowserSessions = {
      ...browser,
      withSession: (profile, use, fn) => {
        seen.push(gflow.catalog.tasks.get(a)?.status);
        return browser.withSession(profile, use, fn);
      },
    };
    const report = await drainTaskQueue(runtime(watching), options({ tryLock: lockBox().tryLock }));
    expect(report.ran).toEqual([a]);
    expect(seen).toEqual(['pending', 'pending', 'pending']);
  });

  it('settles a job that threw instead of settling its row, and goes on with the next', async () => {
    const a = queue('alice', 'throws');
    const b = queue('alice', 'fine');
    const runTask = (record: TaskRecord): Promise<unknown> =>
      record.taskId === a ? Promise.reject(new Error('boom')) : completing(record);
    const report = await drainTaskQueue(runtime(), options({ tryLock: lockBox().tryLock, runTask }));
    expect(report.ran).toEqual([a, b]);
    expect(gflow.catalog.tasks.get(a)).toMatchObject({ status: 'failed', error: { exit_code: 1 } });
    expect(gflow.catalog.tasks.get(b)?.status).toBe('completed');
  });

  it('stops when its signal is aborted, leaving the rest of the queue pending', async () => {
    const a = queue('alice', 'first');
    const b = queue('alice', 'second');
    const controller = new AbortController();
    const runTask = (record: TaskRecord): Promise<unknown> => {
      controller.abort();
      return completing(record);
    };
    const { box, tryLock } = lockBox();
    const report = await drainTaskQueue(runtime(), options({ tryLock, runTask, signal: controller.signal }));
    expect(report).toEqual({ ran: [a], reason: 'stopped' });
    expect(gflow.catalog.tasks.get(b)?.status).toBe('pending');
    expect(box.held).toBe(false);
  });

  it('says in its lock which task it runs, and is idle between tasks', async () => {
    const a = queue('alice', 'first');
    const activities: string[] = [];
    const { tryLock } = lockBox();
    const recording = (): WorkerLock | undefined => {
      const lock = tryLock();
      return (
        lock && {
          ...lock,
          setActivity: (activity) => activities.push(activity.state === 'busy' ? activity.doing : 'idle'),
        }
      );
    };
    await drainTaskQueue(runtime(), options({ tryLock: recording }));
    expect(activities).toEqual([`task ${a}`, 'idle']);
  });

  it('a lock held for a moment (another process looking at it) is tried again, not given up at once', async () => {
    const a = queue('alice', 'first');
    const { box, tryLock } = lockBox();
    box.foreign = true;
    let tries = 0;
    // The other process lets go after the worker's second try.
    const looking = (): WorkerLock | undefined => ((tries += 1) === 3 && (box.foreign = false), tryLock());
    const report = await drainTaskQueue(runtime(), options({ tryLock: looking, lockGraceMs: 60_000 }));
    expect(report).toEqual({ ran: [a], reason: 'drained' });
    expect(tries).toBeGreaterThanOrEqual(3);
  });
});
