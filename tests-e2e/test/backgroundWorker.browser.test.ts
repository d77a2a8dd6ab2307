// Journey (issues 20, 38): background jobs that outlive the CLI. `gflow image t2i … --no-wait` hands
// its task to a detached `gflow worker run` and returns once the worker took it; `gflow task
// wait|list|show|cancel` read and steer the catalog row; a worker killed before it takes its task
// is replaced by the command; one killed mid-job leaves its task settled at the next start (never
// run again after its submit, queued again before it), and the tasks it left are picked up by the
// next gflow process, visibly; two workers started together on one queue run each task once.
// Every process is the real binary with --sandbox, attached to this file's simulator; each kill
// happens at an observed state (a held reply, a row, a call the simulator received).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { integrityCheck, operationCount, taskRow, taskRows } from './helpers/catalog.js';
import { processesMentioning } from './helpers/processes.js';
import { processesWith, startControlGate } from './helpers/controlGate.js';
import { makePng } from '@gflow/flow-sim';
import { tryNamedLock } from '@gflow/lease';
import { type CliResult, json, jsonLines, waitFor } from '@gflow/testkit';
import { SANDBOX_EMAIL, submits, useSandbox } from '@gflow/testkit/sandbox';

const e2e = useSandbox({ seed: 'journey-background-worker', signIn: true });
const workerPids = new Set<number>();

const describeRun = (r: CliResult): string =>
  `exit ${r.exitCode}\nstdout: ${r.stdout.slice(0, 1500)}\nstderr: ${r.stderr.slice(-2500)}`;

/** The pid in a `worker:<profile>:<pid>:<token>` claimant. */
function workerPidOf(taskId: string): number {
  const claimant = taskRow(e2e.dbPath, taskId)?.claimant ?? '';
  const m = /^worker:sandbox:(\d+):/.exec(claimant);
  if (!m) throw new Error(`task ${taskId} is not claimed by a worker: ${claimant}`);
  const pid = Number(m[1]);
  workerPids.add(pid);
  return pid;
}

/** Alive and not a zombie (a detached worker's parent has exited; pid 1 may never reap it). */
function running(pid: number): boolean {
  try {
    return !/^State:\s+[ZX]/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** Queues one image with --no-wait and returns its task id, checking the pending envelope. */
async function queued(prompt: string): Promise<{ taskId: string; endedAt: number }> {
  const r = await e2e.cli(['image', 't2i', prompt, '--aspect', '1:1', '--no-wait', '--sandbox', '--json']);
  const endedAt = Date.now();
  expect(r.exitCode, describeRun(r)).toBe(0);
  const envelope = json(r);
  expect(envelope).toMatchObject({ status: 'pending', task_id: expect.any(String), task_type: 't2i' });
  return { taskId: String(envelope['task_id']), endedAt };
}

const workerLog = (): string => {
  try {
    return fs.readFileSync(path.join(e2e.sandboxHome, 'logs', 'worker-sandbox.log'), 'utf8');
  } catch {
    return '';
  }
};
const count = (text: string, needle: string): number => text.split(needle).length - 1;

/** The messages of the JSON log lines a piped gflow writes on stderr. */
function logMessages(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{"time"'))
    .map((line) => String((JSON.parse(line) as { event: unknown }).event));
}

/** Waits until no worker of this file's home runs (each leaves once its queue stayed empty for 5 s). */
async function noWorkerLeft(): Promise<void> {
  await waitFor(
    "the earlier tests' workers to leave",
    () => processesWith(['worker', 'run'], `GFLOW_CLI_HOME=${e2e.home}`).length === 0,
    60_000,
  );
}
const GAVE_WAY = '"event":"worker: another worker holds the queue"';

afterAll(async () => {
  // Leave no worker behind for the next file: each leaves once its queue stays empty; one a failed
  // test left busy is stopped with its browser.
  try {
    await waitFor('the workers to exit', () => [...workerPids].every((pid) => !running(pid)), 30_000);
  } finally {
    for (const pid of workerPids) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  }
});

describe('background jobs that outlive the CLI (--no-wait, gflow task, gflow worker run)', () => {
  it('--no-wait returns at once with a task id; task wait follows it to exit 0; the file exists; list shows it', async () => {
    e2e.sim.received.clear();
    const { taskId, endedAt } = await queued('a lantern on a jetty');

    const waited = await e2e.cli(['task', 'wait', taskId, '--sandbox']);
    expect(waited.exitCode, describeRun(waited)).toBe(0);
    // Progress lines on stderr while it ran, the files first on stdout.
    expect(waited.stderr).toContain(`task ${taskId.slice(0, 8)}: `);
    const file = waited.stdout.split('\n')[0] ?? '';
    expect(path.isAbsolute(file) && fs.existsSync(file), describeRun(waited)).toBe(true);
    expect(file.startsWith(e2e.outputDir)).toBe(true);

    const row = taskRow(e2e.dbPath, taskId);
    expect(row?.status).toBe('completed');
    workerPidOf(taskId);
    expect(submits(e2e.sim)).toEqual(['ogiZ0b']);

    // The command did not wait for the job: the row completed after the command had exited.
    const shown = await e2e.cli(['task', 'show', taskId, '--sandbox', '--json']);
    expect(shown.exitCode, describeRun(shown)).toBe(0);
    const task = json(shown);
    expect(task).toMatchObject({
      task_id: taskId,
      status: 'completed',
      command: 'image t2i',
      runner: { surface: 'worker' },
      result: { status: 'completed', files: [file] },
      error: null,
    });
    expect(Date.parse(String(task['updated_at']))).toBeGreaterThan(endedAt);

    const waitedJson = await e2e.cli(['task', 'wait', taskId, '--sandbox', '--json']);
    expect(waitedJson.exitCode).toBe(0);
    expect(json(waitedJson)).toMatchObject({ status: 'completed', task_id: taskId, files: [file] });

    const listed = await e2e.cli(['task', 'list', '--sandbox', '--json']);
    expect(listed.exitCode, describeRun(listed)).toBe(0);
    expect(jsonLines(listed)).toContainEqual(expect.objectContaining({ task_id: taskId, status: 'completed' }));
    const none = await e2e.cli(['task', 'list', '--status', 'pending', '--sandbox', '--json']);
    expect(jsonLines(none).map((t) => t['task_id'])).not.toContain(taskId);

    const unknown = await e2e.cli(['task', 'show', '00000000-0000-4000-8000-000000000000', '--sandbox', '--json']);
    expect(unknown.exitCode).toBe(32);
    expect(json(unknown)).toMatchObject({
      status: 'error',
      error: { type: expect.stringContaining('reference-not-found') },
    });
  }, 150_000);

  it('task cancel: a pending task at once; a running one past its submit is indeterminate, and wait exits 130', async () => {
    e2e.sim.received.clear();
    e2e.sim.scenario.setFailure(SANDBOX_EMAIL, 'stuck_generation');
    try {
      const stuck = (await queued('a generation Flow never finishes')).taskId;
      await waitFor('the stuck submit to reach the simulator', () => submits(e2e.sim).length === 1, 60_000);
      await waitFor('the stuck task to be working', () => taskRow(e2e.dbPath, stuck)?.status === 'working', 10_000);
      workerPidOf(stuck);
      // The worker is busy: this one waits in the queue (its own worker found the queue taken).
      const behind = (await queued('queued behind it')).taskId;
      expect(taskRow(e2e.dbPath, behind)?.status).toBe('pending');

      const cancelled = await e2e.cli(['task', 'cancel', behind, '--sandbox', '--json']);
      expect(cancelled.exitCode, describeRun(cancelled)).toBe(0);
      expect(json(cancelled)).toMatchObject({ task_id: behind, status: 'cancelled', may_have_spent: false });
      expect(taskRow(e2e.dbPath, behind)?.status).toBe('cancelled');

      // Waiting with a timeout leaves it running: exit 9.
      const impatient = await e2e.cli(['task', 'wait', stuck, '--timeout', '1', '--sandbox', '--json']);
      expect(impatient.exitCode, describeRun(impatient)).toBe(9);
      expect(json(impatient)).toMatchObject({
        status: 'error',
        error: { type: expect.stringContaining('transport-timeout'), task_id: stuck },
      });
      expect(taskRow(e2e.dbPath, stuck)?.status).toBe('working');

      // Past its submit: the worker is asked, stops the job, and the row says a credit may have been spent.
      const stopped = await e2e.cli(['task', 'cancel', stuck, '--sandbox', '--json']);
      expect(stopped.exitCode, describeRun(stopped)).toBe(0);
      expect(json(stopped)).toMatchObject({ task_id: stuck, status: 'indeterminate', may_have_spent: true });
      expect(taskRow(e2e.dbPath, stuck)?.status).toBe('indeterminate');

      const waited = await e2e.cli(['task', 'wait', stuck, '--sandbox', '--json']);
      expect(waited.exitCode, describeRun(waited)).toBe(130);
      expect(json(waited)).toMatchObject({
        status: 'indeterminate',
        task_id: stuck,
        error: { type: expect.stringContaining('cancelled') },
      });
      // Nothing was sent for the cancelled one.
      expect(submits(e2e.sim)).toEqual(['ogiZ0b']);
    } finally {
      e2e.sim.scenario.clearFailures();
    }
  }, 150_000);

  it('a worker killed before it takes its task (stopped on its first call): --no-wait starts another, and the task completes with no other command', async () => {
    // No worker of an earlier test may take the task: the one this command starts is the only one.
    await noWorkerLeft();
    e2e.sim.received.clear();
    const gate = await startControlGate(e2e.sim.control.url);
    const env = { GFLOW_CLI_SANDBOX_SIM: gate.url };
    try {
      // The command's own start asks for the launch arguments first; its worker's is the second ask.
      gate.holdLaunch(2);
      const queuing = e2e.spawn(
        ['image', 't2i', 'its first worker is killed', '--aspect', '1:1', '--no-wait', '--sandbox', '--json'],
        { env },
      );
      await waitFor('the first worker to ask the simulator for its launch', () => gate.held === 1, 60_000);
      const first = processesWith(['worker', 'run'], `GFLOW_CLI_SANDBOX_SIM=${gate.url}`);
      expect(first).toHaveLength(1);
      for (const pid of first) process.kill(-pid, 'SIGKILL');
      gate.dropHeld();

      const r = await queuing.done;
      expect(r.exitCode, describeRun(r)).toBe(0);
      const taskId = String(json(r)['task_id']);
      expect(r.stderr).toContain(`(pid ${first[0]}) stopped before taking task ${taskId}; starting another.`);
      // The command returned once the second worker took it; nothing else is run from here on.
      await waitFor('the task to complete', () => taskRow(e2e.dbPath, taskId)?.status === 'completed', 60_000);
      expect(first).not.toContain(workerPidOf(taskId));
      expect(submits(e2e.sim)).toEqual(['ogiZ0b']);
      expect(operationCount(e2e.dbPath, taskId)).toBe(1);
    } finally {
      await gate.close();
    }
  }, 150_000);

  it('a worker killed mid-job (after its submit) is settled indeterminate, and the tasks queued behind it are visibly picked up by the next gflow process', async () => {
    // The victim's own worker must take it: a worker left from the test before would, and the
    // victim's worker would then give way too (one more worker to count out below).
    await noWorkerLeft();
    e2e.sim.received.clear();
    e2e.sim.scenario.setFailure(SANDBOX_EMAIL, 'stuck_generation', { times: 1 });
    const victim = (await queued('killed with its worker')).taskId;
    await waitFor('the submit to reach the simulator', () => submits(e2e.sim).length === 1, 60_000);
    await waitFor(
      'a spend checkpoint',
      () => JSON.parse(taskRow(e2e.dbPath, victim)?.checkpoint_json ?? '{}').may_have_spent === true,
      10_000,
    );
    const pid = workerPidOf(victim);
    // Three more, queued while that worker holds the queue: their own workers give way to it.
    const before = count(workerLog(), GAVE_WAY);
    const behind: string[] = [];
    for (const prompt of ['one', 'two', 'three']) behind.push((await queued(`behind the victim: ${prompt}`)).taskId);
    // Every worker but the victim has left (each command returned after starting its worker, so
    // each is already listed): one still starting would take the queue once the victim is killed,
    // and the next gflow would rightly find nothing stranded.
    await waitFor(
      'their workers to give way and leave',
      () => processesWith(['worker', 'run'], `GFLOW_CLI_HOME=${e2e.home}`).every((other) => other === pid),
      60_000,
    );
    expect(count(workerLog(), GAVE_WAY)).toBe(before + 3);

    process.kill(-pid, 'SIGKILL'); // the worker's process group: it and its Chromium
    const profileDir = path.join(e2e.sandboxHome, 'profile_sandbox');
    await waitFor(
      'the worker and its browser to be gone',
      () => !running(pid) && processesMentioning(profileDir).length === 0,
      15_000,
    );
    // Nothing has opened the catalog since: the row still says working, the others wait on a dead worker.
    expect(taskRow(e2e.dbPath, victim)?.status).toBe('working');
    expect(behind.map((id) => taskRow(e2e.dbPath, id)?.status)).toEqual(['pending', 'pending', 'pending']);

    // The next start (any gflow that opens the catalog for a task or a profile) settles the victim —
    // it had submitted, so it is never run again — and picks the three up, saying so.
    const shown = await e2e.cli(['task', 'show', victim, '--sandbox', '--json']);
    expect(shown.exitCode, describeRun(shown)).toBe(0);
    expect(json(shown)).toMatchObject({
      status: 'indeterminate',
      may_have_spent: true,
      error: { type: expect.stringContaining('daemon-recovery') },
    });
    const notices = logMessages(shown.stderr);
    for (const id of behind)
      expect(notices, `task show said:\n${shown.stderr}\nworkers:\n${workerLog().slice(-3000)}`).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^Picked up task ${id} \\(profile "sandbox"\\) queued at \\S+: its worker had stopped before taking it; a new background worker \\(its log: \\S+worker-sandbox\\.log\\) runs it now\\.$`,
          ),
        ),
      );
    await waitFor(
      'the three to complete with no other command',
      () => behind.every((id) => taskRow(e2e.dbPath, id)?.status === 'completed'),
      90_000,
    );
    for (const id of behind) workerPidOf(id);
    // One submit each, and the victim's was not repeated.
    expect(submits(e2e.sim)).toEqual(['ogiZ0b', 'ogiZ0b', 'ogiZ0b', 'ogiZ0b']);
    expect(behind.map((id) => operationCount(e2e.dbPath, id))).toEqual([1, 1, 1]);
    expect(operationCount(e2e.dbPath, victim)).toBe(1);
    const waited = await e2e.cli(['task', 'wait', victim, '--sandbox', '--json']);
    expect(waited.exitCode).toBe(1);
    expect(json(waited)).toMatchObject({
      status: 'indeterminate',
      error: { type: expect.stringContaining('daemon-recovery') },
    });
  }, 200_000);

  it('a worker killed after its claim, before its submit: nothing was spent, so the task is queued again and task wait picks it up and follows it to its file', async () => {
    // The worker this command starts is the only one: killing it leaves nobody to run the task.
    await noWorkerLeft();
    e2e.sim.received.clear();
    e2e.sim.scenario.setFailure(SANDBOX_EMAIL, 'stuck_upload', { times: 1 });
    const frame = path.join(e2e.home, 'requeue-frame.png');
    fs.writeFileSync(frame, makePng(640, 360, 'requeue'));
    const r = await e2e.cli([
      'video',
      'i2v',
      'stopped mid-upload',
      '--initial-frame',
      frame,
      '--no-wait',
      '--sandbox',
      '--json',
    ]);
    expect(r.exitCode, describeRun(r)).toBe(0);
    const taskId = String(json(r)['task_id']);
    // Observed: the worker claimed the task and is uploading its frame (the upload never ends).
    await waitFor('the stalled upload', () => e2e.sim.received.calls('maseQ').length > 0, 60_000);
    const row = taskRow(e2e.dbPath, taskId);
    expect(row?.status).toBe('working');
    expect(JSON.parse(row?.checkpoint_json ?? '{}')).toMatchObject({ may_have_spent: false });
    const pid = workerPidOf(taskId);
    process.kill(-pid, 'SIGKILL');
    await waitFor('the worker to be gone', () => !running(pid), 15_000);
    expect(processesWith(['worker', 'run'], `GFLOW_CLI_HOME=${e2e.home}`)).toEqual([]);

    const waited = await e2e.cli(['task', 'wait', taskId, '--sandbox', '--json']);
    expect(waited.exitCode, describeRun(waited)).toBe(0);
    expect(json(waited)).toMatchObject({ status: 'completed', task_id: taskId });
    expect(logMessages(waited.stderr)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Picked up task ${taskId} \\(profile "sandbox"\\) queued at \\S+: the process running it had stopped before its submit \\(nothing was spent\\); a new background worker .* runs it now\\.$`,
        ),
      ),
    ]);
    // While queued it named the worker it started (never a dead owner), then followed the job.
    expect(waited.stderr).toMatch(
      new RegExp(
        `task ${taskId.slice(0, 8)}: Queued – (its worker is starting \\(gflow worker, pid \\d+\\)|gflow worker, pid \\d+ runs it next)`,
      ),
    );
    expect(JSON.parse(taskRow(e2e.dbPath, taskId)?.checkpoint_json ?? '{}')).toMatchObject({ requeues: 1 });
    expect(workerPidOf(taskId)).not.toBe(pid);
    expect(submits(e2e.sim)).toHaveLength(1);
  }, 150_000);

  it('a running server picks up a background task whose worker had stopped, runs it itself and says so', async () => {
    await noWorkerLeft();
    e2e.sim.received.clear();
    // Queued while this process holds the queue: its worker gives way, and nobody runs it after.
    const lock = tryNamedLock(path.join(e2e.sandboxHome, 'locks'), 'worker-sandbox');
    if (!lock) throw new Error('a worker still holds the sandbox queue');
    let stranded: string;
    try {
      stranded = (await queued('left for a server')).taskId;
    } finally {
      lock.release();
    }
    await noWorkerLeft();
    expect(taskRow(e2e.dbPath, stranded)?.status).toBe('pending');

    const server = await e2e.mcpStdio(['--sandbox'], { env: { GFLOW_CLI_LOG_LEVEL: 'INFO' } });
    try {
      const seen = (): string =>
        `row: ${JSON.stringify(taskRow(e2e.dbPath, stranded))}\nserver:\n${server.stderr()}\nworkers:\n${workerLog().slice(-3000)}`;
      // No call is made: the server looks when it starts.
      await waitFor('the server to run it', () => taskRow(e2e.dbPath, stranded)?.status === 'completed', 90_000).catch(
        (error: unknown) => {
          throw new Error(`${String(error)}\n${seen()}`);
        },
      );
      expect(taskRow(e2e.dbPath, stranded)?.claimant).toMatch(/^mcp:sandbox:\d+:/);
      expect(logMessages(server.stderr()), seen()).toContainEqual(
        expect.stringMatching(
          new RegExp(
            // The SDK's client may start the server twice (its version probe): a first server that
            // took the task and was stopped before its submit put it back, and the second says so.
            `^Picked up task ${stranded} \\(profile "sandbox"\\) queued at \\S+: (its worker had stopped before taking it|the process running it had stopped before its submit \\(nothing was spent\\)); this server \\(gflow mcp run, pid \\d+\\) runs it now\\.$`,
          ),
        ),
      );
      expect(submits(e2e.sim)).toEqual(['ogiZ0b']);
    } finally {
      await server.close();
    }
  }, 150_000);

  it('two workers started together on one queue: each task runs exactly once', async () => {
    await noWorkerLeft();
    e2e.sim.received.clear();
    // This process holds the queue while three tasks are queued, so no worker takes them yet
    // (each --no-wait sees the queue held and returns).
    const lock = tryNamedLock(path.join(e2e.sandboxHome, 'locks'), 'worker-sandbox');
    if (!lock) throw new Error('a worker still holds the sandbox queue');
    const tasks: string[] = [];
    try {
      for (const prompt of ['one', 'two', 'three'])
        tasks.push((await queued(`queued for two workers: ${prompt}`)).taskId);
    } finally {
      lock.release();
    }
    expect(tasks.map((id) => taskRow(e2e.dbPath, id)?.status)).toEqual(['pending', 'pending', 'pending']);
    const args = ['worker', 'run', '--profile', 'sandbox', '--sandbox', '--idle-seconds', '0'];
    const workers = [e2e.spawn(args), e2e.spawn(args)];
    for (const w of workers) workerPids.add(w.pid);
    const results = await Promise.all(workers.map((w) => w.done));
    for (const r of results) expect(r.exitCode, describeRun(r)).toBe(0);

    const claimed = results.flatMap((r) =>
      r.stderr
        .split('\n')
        .filter((line) => line.includes('"event":"worker: task claimed"'))
        .map((line) => String((JSON.parse(line) as { task_id: string }).task_id)),
    );
    expect([...claimed].sort()).toEqual([...tasks].sort());
    for (const id of tasks) expect(taskRow(e2e.dbPath, id)?.status).toBe('completed');
    expect(submits(e2e.sim)).toEqual(['ogiZ0b', 'ogiZ0b', 'ogiZ0b']);
    // Exactly one run of the job per task in the catalog.
    expect(tasks.map((id) => operationCount(e2e.dbPath, id))).toEqual([1, 1, 1]);
    expect(taskRows(e2e.dbPath).filter((row) => row.status === 'working')).toEqual([]);
    expect(integrityCheck(e2e.dbPath)).toBe('ok');
  }, 150_000);
});
