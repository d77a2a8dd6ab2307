// --no-wait's handover (issue 38) with a real catalog and worker lock in a temp home, and fake
// worker processes whose exit the test decides: the wait ends on the row's state or a live
// worker's record, a worker that dies first is replaced once, and a task nobody took is named.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DaemonRecoveryError } from '@gflow/errors';
import { tryNamedLock } from '@gflow/lease';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGflow } from '../runtime/createGflow.js';
import type { Gflow } from '../runtime/gflow.js';
import type { LaunchedWorker } from '../runtime/runtimeServices.js';
import { workerLockName } from './queueOwner.js';
import { type HandoverOptions, awaitHandover, handoverNotice } from './workerHandover.js';

let home: string;
let gflow: Gflow;

beforeEach(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-handover-'));
  gflow = await createGflow({ surface: 'library', env: { GFLOW_CLI_HOME: home }, cwd: home }).ready();
});

afterEach(async () => {
  await gflow.close();
  fs.rmSync(home, { recursive: true, force: true });
});

/** A worker process the test ends (`exit()`), or one that has already ended. */
function fakeWorker(pid: number, exitedAlready = false): LaunchedWorker & { exit(): void } {
  let exited = exitedAlready;
  let resolve: () => void = () => undefined;
  const done = new Promise<void>((r) => (resolve = r));
  if (exitedAlready) resolve();
  return {
    pid,
    hasExited: () => exited,
    exited: done,
    exit: () => {
      exited = true;
      resolve();
    },
  };
}

function queued(): string {
  const task = gflow.catalog.tasks.create({ profile: 'alice', taskType: 't2i', payload: { input: { wait: false } } });
  return task.taskId;
}

function options(taskId: string, overrides: Partial<HandoverOptions>): HandoverOptions {
  return {
    queue: () => gflow.queue,
    locksDir: gflow.layout.locksDir,
    taskId,
    profile: 'alice',
    first: undefined,
    relaunch: () => undefined,
    logFile: '/logs/worker-alice.log',
    pollMs: 5,
    ...overrides,
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('awaitHandover', () => {
  it('ends when its worker claims the task, naming the worker', async () => {
    const id = queued();
    const worker = fakeWorker(101);
    const waiting = awaitHandover(options(id, { first: worker }));
    gflow.catalog.tasks.claim(id, 'worker:alice:101:abc');
    const handover = await waiting;
    expect(handover).toEqual({ state: 'claimed', by: { surface: 'worker', pid: 101 } });
    expect(handoverNotice(id, handover)).toBe(`Task ${id} is running in gflow worker, pid 101.`);
  });

  it('ends when a live worker drains the queue (the task runs after its current one)', async () => {
    const id = queued();
    const lock = tryNamedLock(gflow.layout.locksDir, workerLockName('alice'), {
      profileName: 'alice',
      surface: 'worker',
      activity: { state: 'busy', doing: 'task earlier-1' },
    });
    try {
      const handover = await awaitHandover(options(id, { first: fakeWorker(102, true) }));
      expect(handover).toMatchObject({ state: 'queued', worker: { pid: process.pid, runningTaskId: 'earlier-1' } });
      expect(handoverNotice(id, handover)).toBe(
        `Task ${id} is queued: gflow worker, pid ${process.pid} runs it after task earlier-1.`,
      );
    } finally {
      lock?.release();
    }
  });

  it('replaces a worker that died before taking the task, once; the second one takes it', async () => {
    const id = queued();
    const events: string[] = [];
    const second = fakeWorker(202);
    const handover = awaitHandover(
      options(id, {
        first: fakeWorker(201, true),
        relaunch: () => {
          events.push('relaunched');
          setImmediate(() => gflow.catalog.tasks.claim(id, 'worker:alice:202:def'));
          return second;
        },
        onEvent: (message) => events.push(message),
      }),
    );
    expect(await handover).toEqual({ state: 'claimed', by: { surface: 'worker', pid: 202 } });
    expect(events).toEqual([
      `The background worker (pid 201) stopped before taking task ${id}; starting another.`,
      'relaunched',
    ]);
  });

  it('throws, naming the task and leaving it pending, when the replacement dies too', async () => {
    const id = queued();
    let launches = 0;
    const error = await rejection(
      awaitHandover(options(id, { first: fakeWorker(301, true), relaunch: () => (launches++, fakeWorker(302, true)) })),
    );
    expect(launches).toBe(1);
    expect(error).toBeInstanceOf(DaemonRecoveryError);
    const problem = error as DaemonRecoveryError;
    expect(problem.message).toContain(
      `Task ${id} is queued, but no worker took it: its background worker stopped twice`,
    );
    expect(problem.message).toContain('Nothing was sent to Flow. The task is left pending');
    expect(problem.extensions).toMatchObject({ task_id: id, task_status: 'pending', profile: 'alice' });
    expect(problem.remediationHint).toContain('/logs/worker-alice.log');
    expect(problem.remediationHint).toContain(`gflow task cancel ${id}`);
    expect(gflow.catalog.tasks.get(id)?.status).toBe('pending');
  });

  it('throws when a live worker does not take it within the bound', async () => {
    const id = queued();
    const stuck = fakeWorker(401);
    const error = await rejection(awaitHandover(options(id, { first: stuck, boundMs: 50 })));
    expect((error as DaemonRecoveryError).message).toContain(
      'its background worker (pid 401) did not take it within 0 s',
    );
    expect(stuck.hasExited()).toBe(false);
  });

  it('a task settled meanwhile (cancelled from elsewhere) ends the wait', async () => {
    const id = queued();
    gflow.catalog.tasks.cancel(id);
    expect(await awaitHandover(options(id, { first: fakeWorker(501) }))).toEqual({
      state: 'settled',
      status: 'cancelled',
    });
  });
});
