// The task operations over a real catalog (a temp home), the job played by the test through the
// catalog's own transitions: listing and showing rows, following a task to its envelope (and its
// phases as progress), a timeout, unknown ids, and cancelling a pending and a running task.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CancelledError, ContentPolicyError, DaemonRecoveryError, exitCodeOf } from '@gflow/errors';
import { type NamedLock, tryNamedLock } from '@gflow/lease';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROGRESS_PHASES, type ProgressEvent } from '../runtime/progressPhases.js';
import type { TaskRecord } from '@gflow/catalog';
import { createGflow } from '../runtime/createGflow.js';
import { progressOf } from '../tasks/taskProgress.js';
import type { Gflow } from '../runtime/gflow.js';

let home: string;
let gflow: Gflow;
const WORKER = 'worker:alice:4242:tok';

beforeEach(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-task-ops-'));
  gflow = await createGflow({
    surface: 'library',
    env: { GFLOW_CLI_HOME: home, GFLOW_CLI_LOG_LEVEL: 'ERROR' },
    cwd: home,
  }).ready();
});

afterEach(async () => {
  await gflow.close();
  fs.rmSync(home, { recursive: true, force: true });
});

const tasks = () => gflow.catalog.tasks;

function queue(profile = 'alice', wait?: boolean): string {
  return tasks().create({
    profile,
    taskType: 't2i',
    payload: {
      kind: 'image',
      command: 'image t2i',
      input: { prompt: 'a secret prompt', ...(wait === undefined ? {} : { wait }) },
    },
  }).taskId;
}

/** A live worker draining alice's queue (this process holds the lock, with its record). */
function aliveWorker(): NamedLock {
  const lock = tryNamedLock(gflow.layout.locksDir, 'worker-alice', { profileName: 'alice', surface: 'worker' });
  if (!lock) throw new Error('the worker lock is held');
  return lock;
}

async function failure(run: Promise<unknown>): Promise<unknown> {
  return run.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

describe('listTasks and showTask', () => {
  it('lists newest first with status filter and pages; rows carry no prompt; show adds result or error', async () => {
    const a = queue();
    const b = queue();
    const c = queue('bob');
    // The 4242 in the claimant is read back as the runner's pid.
    tasks().claim(a, WORKER);
    tasks().complete(a, WORKER, { status: 'completed', task_id: a, files: ['/x/a.jpg'] });
    tasks().claim(b, WORKER);
    tasks().fail(b, WORKER, new ContentPolicyError('Refused.'));

    const all = (await gflow.run('listTasks', {})) as { items: Array<Record<string, unknown>>; has_more: boolean };
    expect(all.items.map((t) => t['task_id'])).toEqual([c, b, a]);
    expect(JSON.stringify(all)).not.toContain('secret');
    expect(all.items[2]).toMatchObject({
      status: 'completed',
      command: 'image t2i',
      runner: { surface: 'worker', pid: 4242 },
      may_have_spent: false,
      cancel_requested: false,
    });
    expect(all.items[0]).toMatchObject({ status: 'pending', phase: null, runner: null, claimed_at: null });
    const failed = (await gflow.run('listTasks', { status: 'failed' })) as { items: Array<{ task_id: string }> };
    expect(failed.items.map((t) => t.task_id)).toEqual([b]);
    expect(await gflow.run('listTasks', { profile: 'alice', limit: 1 })).toMatchObject({
      count: 1,
      has_more: true,
      next_offset: 1,
    });

    const shownA = (await gflow.run('showTask', { task_id: a })) as { task: Record<string, unknown> };
    expect(shownA.task).toMatchObject({ status: 'completed', result: { files: ['/x/a.jpg'] }, error: null });
    const shownB = (await gflow.run('showTask', { task_id: b })) as { task: Record<string, unknown> };
    expect(shownB.task).toMatchObject({
      status: 'failed',
      result: null,
      error: { type: expect.stringContaining('content-policy'), exit_code: 5 },
    });
  });

  it('an unknown id is reference-not-found (exit 32); a malformed one is a bad parameter (exit 2)', async () => {
    const unknown = await failure(gflow.run('showTask', { task_id: 'no-such-task' }));
    expect(unknown).toMatchObject({ code: 'reference-not-found' });
    expect(exitCodeOf(unknown)).toBe(32);
    for (const op of ['waitTask', 'cancelTask'] as const)
      expect(exitCodeOf(await failure(gflow.run(op, { task_id: 'no-such-task' })))).toBe(32);
    expect(exitCodeOf(await failure(gflow.run('showTask', { task_id: '../etc' })))).toBe(2);
  });
});

describe('waitTask', () => {
  it("reads a generation row's phases in PROGRESS_PHASES order: claimed first, Flow's done before the files, never done", () => {
    // What a generation's row records, in the order it records it (run.ts, progress.ts, the driver).
    const recorded = ['claimed', 'started', 'waiting-for-profile', 'starting-browser', 'opening', 'configuring'];
    const after = ['submitting', 'submitted', 'generating', 'done', 'downloading', 'recording'];
    const row = (phase: string) => ({ status: 'working', checkpoint: { phase } }) as unknown as TaskRecord;
    const events = [...recorded, ...after].map((phase) => progressOf(row(phase), 0));
    const at = events.map((event) => PROGRESS_PHASES.indexOf(event.phase));
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(events.map((event) => event.phase)).not.toContain('done');
    expect(events[9]).toMatchObject({ phase: 'generating', message: 'made in Flow' });
  });

  it('follows the row to its end, one progress event per phase, and returns the stored envelope', async () => {
    const id = queue('alice', false);
    const seen: string[] = [];
    // This process plays the worker: a live claimant.
    const live = gflow.claimantFor('alice');
    const lock = aliveWorker();
    // Each phase reported moves the "job" on: the test needs no clock.
    const step = (event: ProgressEvent): void => {
      seen.push(`${event.phase}${event.message ? `:${event.message}` : ''}`);
      if (seen.length === 1) tasks().claim(id, live);
      else if (seen.length === 2) tasks().updateCheckpoint(id, live, { phase: 'submitting', may_have_spent: true });
      else tasks().complete(id, live, { status: 'completed', task_id: id, files: ['/x/done.jpg'] });
    };
    try {
      const result = await gflow.run('waitTask', { task_id: id, poll_ms: 50 }, { onProgress: step });
      expect(result).toEqual({ status: 'completed', task_id: id, files: ['/x/done.jpg'] });
    } finally {
      lock.release();
    }
    expect(seen).toEqual([
      `queued:gflow worker, pid ${process.pid} runs it next`,
      'waiting-for-profile:claimed',
      'submitting',
    ]);
  });

  it('a failed task answers its envelope with the problem and its message; a cancelled one a cancellation', async () => {
    const a = queue();
    tasks().claim(a, WORKER);
    tasks().fail(a, WORKER, new ContentPolicyError('Refused.'));
    expect(await gflow.run('waitTask', { task_id: a })).toMatchObject({
      status: 'failed',
      task_id: a,
      task_type: 't2i',
      error: { type: expect.stringContaining('content-policy'), message: expect.stringContaining('Refused.') },
    });
    const b = queue();
    tasks().cancel(b);
    expect(await gflow.run('waitTask', { task_id: b })).toMatchObject({
      status: 'cancelled',
      error: { type: expect.stringContaining('cancelled'), detail: expect.stringContaining('before it ran') },
    });
  });

  it('gives up after timeout_seconds with transport-timeout (exit 9), saying who runs it; the task is left as it was', async () => {
    const id = queue('alice', false);
    const lock = aliveWorker();
    lock.setActivity({ state: 'busy', doing: 'task earlier-1' });
    try {
      const error = await failure(gflow.run('waitTask', { task_id: id, timeout_seconds: 0.1, poll_ms: 50 }));
      expect(exitCodeOf(error)).toBe(9);
      expect(error).toMatchObject({
        detail: `Task ${id} is still pending after 0.1 s; gflow worker, pid ${process.pid} runs it after task earlier-1.`,
        extensions: { task_id: id, task_status: 'pending' },
      });
      expect(tasks().get(id)?.status).toBe('pending');
    } finally {
      lock.release();
    }
  });

  it('never says a task whose owner is gone keeps running: it names what to do (a library starts no worker)', async () => {
    // Queued with --no-wait; its worker stopped before taking it.
    const stranded = queue('alice', false);
    const error = await failure(gflow.run('waitTask', { task_id: stranded, timeout_seconds: 30 }));
    expect(error).toBeInstanceOf(DaemonRecoveryError);
    expect(exitCodeOf(error)).toBe(1);
    expect((error as DaemonRecoveryError).detail).toBe(
      `Task ${stranded} is pending, and nobody runs it: its worker had stopped, and this process does not start workers. Nothing more was sent to Flow.`,
    );
    expect((error as DaemonRecoveryError).remediationHint).toContain(`gflow task cancel ${stranded}`);

    // Its worker died after the claim but before the submit: queued again (nothing was spent), then the same.
    const requeued = queue('alice', false);
    tasks().claim(requeued, WORKER);
    tasks().updateCheckpoint(requeued, WORKER, { phase: 'configuring' });
    expect(await failure(gflow.run('waitTask', { task_id: requeued, timeout_seconds: 30 }))).toBeInstanceOf(
      DaemonRecoveryError,
    );
    expect(tasks().get(requeued)).toMatchObject({ status: 'pending', checkpoint: { requeues: 1 } });

    // Died after its submit: settled indeterminate on the spot, never run again.
    const spent = queue('alice', false);
    tasks().claim(spent, WORKER);
    tasks().updateCheckpoint(spent, WORKER, { phase: 'submitted', may_have_spent: true });
    expect(await gflow.run('waitTask', { task_id: spent, timeout_seconds: 30 })).toMatchObject({
      status: 'indeterminate',
      error: { type: expect.stringContaining('daemon-recovery') },
    });

    // A waited call's row whose process is gone: its caller is gone too, so it is never run for it.
    const waited = queue('alice', true);
    const refused = await failure(gflow.run('waitTask', { task_id: waited, timeout_seconds: 30 }));
    expect((refused as DaemonRecoveryError).detail).toContain('it was queued by a call that waited for it');
  });

  it('on a server surface the bound answers the progress so far instead (an MCP client has a tool timeout of its own)', async () => {
    const server = await createGflow({
      surface: 'mcp',
      env: { GFLOW_CLI_HOME: home, GFLOW_CLI_LOG_LEVEL: 'ERROR' },
      cwd: home,
    }).ready();
    try {
      const id = queue();
      const runner = server.claimantFor('alice');
      tasks().claim(id, runner);
      tasks().updateCheckpoint(id, runner, { phase: 'submitted', may_have_spent: true, project_id: 'proj-1' });
      const reply = await server.run('gflow_task_wait', { task_id: id, timeout_seconds: 0.1, poll_ms: 50 });
      expect(reply).toMatchObject({
        status: 'pending',
        task_id: id,
        task_status: 'working',
        phase: 'submitted',
        may_have_spent: true,
        flow_project_id: 'proj-1',
        hint: expect.stringContaining('gflow_task_wait'),
      });
      expect(tasks().get(id)?.status).toBe('working');
    } finally {
      await server.close();
    }
  });
});

describe('cancelTask', () => {
  it('cancels a pending task at once; a settled one is left alone', async () => {
    const id = queue();
    const reply = (await gflow.run('cancelTask', { task_id: id })) as { task: Record<string, unknown> };
    expect(reply.task).toMatchObject({ status: 'cancelled', cancel_requested: false });
    const done = queue();
    tasks().claim(done, WORKER);
    tasks().complete(done, WORKER, { status: 'completed', task_id: done });
    expect(((await gflow.run('cancelTask', { task_id: done })) as { task: { status: string } }).task.status).toBe(
      'completed',
    );
  });

  it('asks a running task to stop and waits for the process running it: indeterminate after its submit', async () => {
    const id = queue();
    tasks().claim(id, WORKER);
    tasks().updateCheckpoint(id, WORKER, { phase: 'submitted', may_have_spent: true });
    // Without waiting: the request is in the row, the task still runs.
    const asked = (await gflow.run('cancelTask', { task_id: id, timeout_seconds: 0 })) as {
      task: Record<string, unknown>;
    };
    expect(asked.task).toMatchObject({ status: 'working', cancel_requested: true });
    // The "worker" honours the request as a job does (runClaimedGenerationTask's watch).
    const worker = setInterval(() => {
      const row = tasks().get(id);
      if (row?.status === 'working' && row.cancelRequestedAt) tasks().fail(id, WORKER, new CancelledError('stopped'));
    }, 10);
    try {
      const reply = (await gflow.run('cancelTask', { task_id: id, timeout_seconds: 30 })) as {
        task: Record<string, unknown>;
      };
      expect(reply.task).toMatchObject({
        status: 'indeterminate',
        may_have_spent: true,
        error: { exit_code: 130 },
      });
    } finally {
      clearInterval(worker);
    }
  });
});
