// The detached worker --no-wait starts: its argv, the environment that makes it open the same
// catalog (and sandbox) as the command that queued the task, and how it is spawned (a fake spawn:
// the real process is started by the journeys, tests-e2e/test/backgroundWorker.browser.test.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SpawnOptions } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkerLauncher, workerEnvironment, workerInvocation } from './workerLauncher.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-launcher-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const COMMAND = [process.execPath, scriptOfThisTest()];

/** A script that exists (the launcher refuses a binary that is gone). */
function scriptOfThisTest(): string {
  return new URL(import.meta.url).pathname;
}

describe('the background worker a --no-wait launches', () => {
  it('is `gflow worker run --profile P` (plus --sandbox) with the resolved home, catalog and output dir', () => {
    const home = path.join(dir, 'home');
    // The home came from ./.env: the worker gets it explicitly, whatever its own cwd finds.
    fs.writeFileSync(path.join(dir, '.env'), `GFLOW_CLI_HOME=${home}\n`);
    const options = { command: COMMAND, env: { PATH: '/bin', KEEP: 'me' }, cwd: dir, flags: { logLevel: 'DEBUG' } };
    const real = workerInvocation({ ...options, sandbox: false }, { taskId: 't', profile: 'work', logsDir: '/l' });
    expect(real).toMatchObject({
      command: process.execPath,
      args: [COMMAND[1], 'worker', 'run', '--profile', 'work'],
      cwd: dir,
      logFile: path.join('/l', 'worker-work.log'),
    });
    expect(real.env).toMatchObject({
      KEEP: 'me',
      GFLOW_CLI_HOME: home,
      GFLOW_CLI_DB_PATH: path.join(home, 'gflow.db'),
      GFLOW_CLI_LOG_LEVEL: 'DEBUG',
    });
    expect(real.env['GFLOW_CLI_OUTPUT_DIR']).toEqual(expect.any(String));
  });

  it('under --sandbox: the real home (the worker derives the sandbox from it), the simulator to attach to', () => {
    const env = {
      GFLOW_CLI_HOME: path.join(dir, 'real'),
      GFLOW_CLI_SANDBOX_SIM: 'http://127.0.0.1:9/__sim',
      GFLOW_CLI_SANDBOX_SIM_TOKEN: 'secret-token',
    };
    const flags = { sandbox: true, noSpend: true };
    const invocation = workerInvocation(
      { command: COMMAND, env, cwd: dir, flags, sandbox: true },
      { taskId: 't', profile: 'sandbox', logsDir: path.join(dir, 'real', 'sandbox', 'logs') },
    );
    expect(invocation.args).toEqual([COMMAND[1], 'worker', 'run', '--profile', 'sandbox', '--sandbox']);
    expect(invocation.env).toMatchObject({
      GFLOW_CLI_HOME: path.join(dir, 'real'),
      GFLOW_CLI_SANDBOX_SIM: 'http://127.0.0.1:9/__sim',
      GFLOW_CLI_SANDBOX_SIM_TOKEN: 'secret-token',
      GFLOW_MCP_NO_SPEND: 'true',
    });
    // The sandbox picks its own catalog and outputs inside <home>/sandbox.
    expect(invocation.env['GFLOW_CLI_DB_PATH']).toBeUndefined();
    expect(workerEnvironment({ env, cwd: dir, flags, sandbox: true })['GFLOW_CLI_SANDBOX']).toBeUndefined();
  });

  it('refuses, before anything is queued, a binary that is gone (the task would stay pending for good)', () => {
    const gone = path.join(dir, 'no', 'gflow.js');
    expect(() =>
      workerInvocation(
        { command: [process.execPath, gone], env: {}, cwd: dir, flags: {}, sandbox: false },
        { taskId: 't', profile: 'work', logsDir: dir },
      ),
    ).toThrow(/is gone/);
  });

  it('is spawned detached, stdio appended to its log (0600 in a 0700 logs dir), and not waited for', () => {
    const calls: Array<{ command: string; args: readonly string[]; options: SpawnOptions }> = [];
    let unrefs = 0;
    const launcher = createWorkerLauncher({
      command: COMMAND,
      env: { GFLOW_CLI_HOME: dir },
      cwd: dir,
      flags: {},
      sandbox: false,
      spawn: (command, args, options) => {
        calls.push({ command, args, options });
        return { pid: 1, unref: () => void (unrefs += 1), on: () => undefined };
      },
    });
    const logsDir = path.join(dir, 'logs');
    launcher.launch({ taskId: 't1', profile: 'work', logsDir });
    const second = launcher.launch({ taskId: 't2', profile: 'work', logsDir });
    expect(second).toMatchObject({ pid: 1 });
    expect(calls).toHaveLength(2);
    const [first] = calls;
    expect(first?.options).toMatchObject({ detached: true, cwd: dir });
    const stdio = first?.options.stdio as unknown[];
    expect(stdio[0]).toBe('ignore');
    expect(typeof stdio[1]).toBe('number');
    expect(stdio[2]).toBe(stdio[1]);
    expect(unrefs).toBe(2);
    const log = path.join(logsDir, 'worker-work.log');
    expect(fs.statSync(log).mode & 0o777).toBe(0o600);
    expect(fs.statSync(logsDir).mode & 0o777).toBe(0o700);
  });

  it('returns the process watched: it has ended once it exits or cannot start', async () => {
    const listeners = new Map<string, () => void>();
    const launcher = createWorkerLauncher({
      command: COMMAND,
      env: { GFLOW_CLI_HOME: dir },
      cwd: dir,
      flags: {},
      sandbox: false,
      spawn: () => ({
        pid: 77,
        unref: () => undefined,
        on: (event, listener) => void listeners.set(event, listener),
      }),
    });
    const worker = launcher.launch({ taskId: 't', profile: 'work', logsDir: path.join(dir, 'logs') });
    if (!worker) throw new Error('the launcher returned no worker');
    expect(worker.pid).toBe(77);
    expect(worker.hasExited()).toBe(false);
    expect([...listeners.keys()].sort()).toEqual(['error', 'exit']);
    listeners.get('exit')?.();
    await worker.exited;
    expect(worker.hasExited()).toBe(true);
  });
});
