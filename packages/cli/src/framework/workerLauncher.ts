import { type SpawnOptions, spawn as spawnProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { SettingKey } from '@gflow/core';
import {
  type JobLauncher,
  type LaunchRequest,
  type LaunchedWorker,
  SETTINGS,
  loadSettings,
  workerLogFile,
} from '@gflow/core/surfaces';
import { ConfigurationError } from '@gflow/errors';

export interface WorkerLauncherOptions {
  /** How to start this same binary: `[process.execPath, <bin/gflow.js>]`. */
  readonly command: readonly string[];
  /** The queuing command's environment, working directory and setting flags (its settings resolve from them). */
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly flags: Partial<Record<SettingKey, unknown>>;
  /** The queuing command ran with --sandbox: the worker opens the same sandbox. */
  readonly sandbox: boolean;
  /** Starts the process; default node:child_process spawn (tests pass a fake). */
  readonly spawn?: (command: string, args: readonly string[], options: SpawnOptions) => SpawnedWorker;
}

/** What the launcher needs of a started process: its pid, to let it go, and to hear when it ends. */
export interface SpawnedWorker {
  readonly pid?: number | undefined;
  unref(): void;
  on(event: 'error' | 'exit', listener: () => void): unknown;
}

/** What the launcher starts for a request: the argv and the options of the worker process. */
export interface WorkerInvocation {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly logFile: string;
}

/**
 * The environment a worker gets: the queuing command's, with its setting flags spelled as their
 * variables (`-v` → GFLOW_CLI_LOG_LEVEL=DEBUG) and the settings that locate the queue set
 * explicitly — GFLOW_CLI_HOME always (the real home: with --sandbox the worker derives the sandbox
 * home from it as the command did), the catalog and the output dir outside the sandbox, the
 * simulator to attach to inside it. So a worker opens the catalog the task was queued in, however
 * the command found it (flag, environment, ./.env, the home's .env).
 */
export function workerEnvironment(options: Omit<WorkerLauncherOptions, 'command' | 'spawn'>): NodeJS.ProcessEnv {
  const settings = loadSettings({ env: options.env, cwd: options.cwd, flags: options.flags });
  const env: NodeJS.ProcessEnv = { ...options.env };
  for (const [key, value] of Object.entries(options.flags)) {
    if (key === 'sandbox' || key === 'home' || value === undefined || value === null) continue;
    const spec = SETTINGS[key as SettingKey];
    if (spec) env[spec.env] = Array.isArray(value) ? value.join(' ') : String(value);
  }
  env['GFLOW_CLI_HOME'] = settings.home;
  if (options.sandbox) {
    if (settings.sandboxSim) {
      env['GFLOW_CLI_SANDBOX_SIM'] = settings.sandboxSim;
      env['GFLOW_CLI_SANDBOX_SIM_TOKEN'] = settings.sandboxSimToken ?? '';
    }
  } else {
    env['GFLOW_CLI_DB_PATH'] = settings.dbPath;
    env['GFLOW_CLI_OUTPUT_DIR'] = settings.outputDir;
  }
  return env;
}

/** The worker process a launch starts (exported for the tests). */
export function workerInvocation(options: WorkerLauncherOptions, request: LaunchRequest): WorkerInvocation {
  const [command, ...prefix] = options.command;
  if (command === undefined) throw new Error('the worker command is empty');
  const script = prefix[0];
  // A worker that cannot start would leave the task pending for good: refuse before queueing it.
  if (script !== undefined && path.isAbsolute(script) && !fs.existsSync(script))
    throw new ConfigurationError(`The gflow binary ${script} is gone; --no-wait cannot start its background worker.`, {
      remediationHint: 'Reinstall gflow, or run the command without --no-wait.',
    });
  return {
    command,
    args: [...prefix, 'worker', 'run', '--profile', request.profile, ...(options.sandbox ? ['--sandbox'] : [])],
    env: workerEnvironment(options),
    cwd: options.cwd,
    logFile: workerLogFile(request.logsDir, request.profile),
  };
}

/** The started process as core watches it: it has ended once it exited or could not start. */
function watched(child: SpawnedWorker): LaunchedWorker {
  let ended = false;
  const exited = new Promise<void>((resolve) => {
    const end = (): void => {
      ended = true;
      resolve();
    };
    // A start that fails later (ENOENT, EACCES) is an `error` without an `exit`.
    child.on('exit', end);
    child.on('error', end);
  });
  return { pid: child.pid, hasExited: () => ended, exited };
}

/**
 * The CLI's background: a wait=false generation (`--no-wait`) is handed to a detached
 * `gflow worker run --profile P` — the same binary, in its own process group, its stdio appended
 * to `<home>/logs/worker-P.log` — which drains the profile's queue and exits when it has stayed
 * empty. One is started per launch; a worker that finds another draining the profile leaves
 * (see core's drainTaskQueue), so the command never has to know whether one is running. The
 * launch returns the process, watched: core waits until a live worker took the task and starts
 * another once if this one ends first (core's workerHandover). It never keeps the CLI alive.
 */
export function createWorkerLauncher(options: WorkerLauncherOptions): JobLauncher {
  const spawn = options.spawn ?? spawnProcess;
  return {
    launch(request) {
      const invocation = workerInvocation(options, request);
      fs.mkdirSync(request.logsDir, { recursive: true, mode: 0o700 });
      const log = fs.openSync(invocation.logFile, 'a', 0o600);
      try {
        const child = spawn(invocation.command, invocation.args, {
          cwd: invocation.cwd,
          env: invocation.env,
          detached: true,
          stdio: ['ignore', log, log],
          windowsHide: true,
        });
        const worker = watched(child);
        child.unref();
        return worker;
      } finally {
        fs.closeSync(log);
      }
    },
  };
}
