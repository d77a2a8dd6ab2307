// The runtime's side of issue 38, through gflow.run on a CLI runtime with a fake launcher (the
// detached worker is tested for real in tests-e2e/test/backgroundWorker.browser.test.ts): a call
// that hands a task to a worker returns once the worker took it, the row names the process
// handing it over before the worker starts, a worker that dies is replaced once, and a CLI call
// on a profile first picks up the stranded tasks it finds — and says so.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DaemonRecoveryError } from '@gflow/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineOperation } from '../operations/operation.js';
import { Gflow } from './gflow.js';
import type { Logger } from './logger.js';
import type { JobLauncher, LaunchRequest, LaunchedWorker } from './runtimeServices.js';

const homes: string[] = [];
const runtimes: Gflow[] = [];
afterEach(async () => {
  for (const runtime of runtimes.splice(0)) await runtime.close();
  for (const home of homes.splice(0)) fs.rmSync(home, { recursive: true, force: true });
});

/** An operation that queues one background task and hands it to the runtime's launcher, as --no-wait does. */
const queueOne = defineOperation({
  name: 'queueOne',
  mcpName: 'gflow_queue_one',
  title: 'Queue one task',
  description: 'test',
  kind: 'read',
  usesBrowser: false,
  input: z.object({}),
  output: z.string(),
  handler: (_input, { runtime }) => {
    const task = runtime.catalog.tasks.create({
      profile: 'alice',
      taskType: 't2i',
      payload: { input: { wait: false } },
    });
    runtime.background?.launch({ taskId: task.taskId, profile: 'alice', logsDir: runtime.layout.logsDir });
    return Promise.resolve(task.taskId);
  },
});

/** A call on a profile (it would open a browser): the CLI looks for stranded tasks before it. */
const onProfile = defineOperation({
  name: 'onProfile',
  mcpName: 'gflow_on_profile',
  title: 'A call on a profile',
  description: 'test',
  kind: 'read',
  usesBrowser: true,
  input: z.object({}),
  output: z.string(),
  handler: () => Promise.resolve('ok'),
});

function worker(pid: number, exitedAlready: boolean): LaunchedWorker {
  return {
    pid,
    hasExited: () => exitedAlready,
    exited: exitedAlready ? Promise.resolve() : new Promise(() => undefined),
  };
}

interface Setup {
  readonly runtime: Gflow;
  readonly launches: LaunchRequest[];
  readonly warnings: string[];
}

/** A CLI runtime whose launcher runs `onLaunch` (the fake worker) and records each launch. */
function cliRuntime(
  onLaunch: (runtime: Gflow, request: LaunchRequest, n: number) => LaunchedWorker,
  env: Readonly<Record<string, string>> = {},
): Setup {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-keeper-'));
  homes.push(home);
  const launches: LaunchRequest[] = [];
  const warnings: string[] = [];
  const logger: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (message) => void warnings.push(message),
    error: () => undefined,
  };
  const box: { runtime?: Gflow } = {};
  const background: JobLauncher = {
    launch: (request) => {
      launches.push(request);
      return onLaunch(box.runtime as Gflow, request, launches.length);
    },
  };
  const runtime = new Gflow({ surface: 'cli', env: { GFLOW_CLI_HOME: home, ...env }, cwd: home, logger, background }, [
    queueOne,
    onProfile,
  ]);
  box.runtime = runtime;
  runtimes.push(runtime);
  return { runtime, launches, warnings };
}

describe('the handover of a --no-wait task', () => {
  it('returns once the worker claimed it; the row named this process before the worker started', async () => {
    const claimantsAtLaunch: Array<string | null | undefined> = [];
    const { runtime, launches } = cliRuntime((gflow, request) => {
      claimantsAtLaunch.push(gflow.catalog.tasks.get(request.taskId)?.claimant);
      setImmediate(() => gflow.catalog.tasks.claim(request.taskId, `worker:alice:${process.pid}:w1`));
      return worker(4242, false);
    });
    const taskId = String(await runtime.runByName('queueOne', {}));
    expect(runtime.catalog.tasks.get(taskId)).toMatchObject({ status: 'working' });
    expect(launches).toHaveLength(1);
    expect(claimantsAtLaunch).toEqual([runtime.claimantFor('alice')]);
  });

  it('starts another worker once when the first dies before taking it, then fails naming the task', async () => {
    const { runtime, launches, warnings } = cliRuntime((_gflow, _request, n) => worker(5000 + n, true));
    const error = await runtime.runByName('queueOne', {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DaemonRecoveryError);
    expect(launches).toHaveLength(2);
    const taskId = String((error as DaemonRecoveryError).extensions['task_id']);
    expect(runtime.catalog.tasks.get(taskId)?.status).toBe('pending');
    expect(warnings).toEqual([
      `The background worker (pid 5001) stopped before taking task ${taskId}; starting another.`,
    ]);
  });
});

describe('a CLI call on a profile', () => {
  it('first picks up the stranded background tasks it finds (once per run), and says so', async () => {
    const { runtime, launches, warnings } = cliRuntime(() => worker(6000, false));
    await runtime.ready();
    const stranded = runtime.catalog.tasks.create({
      profile: 'alice',
      taskType: 't2i',
      payload: { input: { wait: false } },
    }).taskId;
    runtime.catalog.tasks.create({ profile: 'alice', taskType: 't2i', payload: { input: { wait: true } } });

    expect(await runtime.runByName('onProfile', {})).toBe('ok');
    expect(launches).toEqual([{ taskId: stranded, profile: 'alice', logsDir: runtime.layout.logsDir }]);
    expect(warnings).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Picked up task ${stranded} \\(profile "alice"\\) queued at .*its worker had stopped before taking it; a new background worker \\(its log: .*worker-alice\\.log\\) runs it now\\.$`,
        ),
      ),
    ]);
    await runtime.runByName('onProfile', {});
    expect(launches).toHaveLength(1);
  });

  it('in no-spend mode picks nothing up: a stranded generation would spend, so it waits for another process', async () => {
    const { runtime, launches } = cliRuntime(() => worker(7000, false), { GFLOW_MCP_NO_SPEND: 'true' });
    await runtime.ready();
    runtime.catalog.tasks.create({ profile: 'alice', taskType: 't2i', payload: { input: { wait: false } } });
    expect(runtime.keeper.picksUp).toBe(false);
    await runtime.runByName('onProfile', {});
    expect(launches).toEqual([]);
  });
});

describe('two runtimes of one process on one home', () => {
  it("neither takes the other's working task for a dead process's; once its runtime closed, it is", async () => {
    const first = cliRuntime(() => worker(8000, false));
    const home = first.runtime.layout.home;
    const second = new Gflow({ surface: 'cli', env: { GFLOW_CLI_HOME: home }, cwd: home }, [queueOne, onProfile]);
    runtimes.push(second);
    await first.runtime.ready();
    const taskId = first.runtime.catalog.tasks.create({
      profile: 'alice',
      taskType: 't2i',
      payload: { input: { wait: true } },
    }).taskId;
    first.runtime.catalog.tasks.claim(taskId, first.runtime.claimantFor('alice'));

    // The second runtime's first call on a profile settles dead claims (as a CLI call does).
    expect(await second.runByName('onProfile', {})).toBe('ok');
    expect(second.catalog.tasks.get(taskId)).toMatchObject({ status: 'working' });

    await first.runtime.close();
    await second.keeper.pickUp();
    expect(second.catalog.tasks.get(taskId)?.status).toBe('failed');
  });
});
