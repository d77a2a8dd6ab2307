import { type ChildProcess, spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import type { CliResult } from './output.js';
import { tempDir } from './tempDir.js';

/** The monorepo's root (the kit lives in packages/testkit). */
export const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
/** The real `gflow` binary: the fresh bundle, else the sources through tsx (apps/app/bin/gflow.js). */
export const GFLOW_BIN = path.join(REPO_ROOT, 'apps', 'app', 'bin', 'gflow.js');

/** A fresh, private gflow home (also the run's HOME, so no real client config is ever touched). */
export function makeHome(name = 'cli'): string {
  return tempDir(name);
}

/**
 * The environment of a child gflow: this process's minus every GFLOW_* / FLOW_CLI_* of the
 * developer's shell, HOME and XDG_CONFIG_HOME inside the home, GFLOW_CLI_HOME and an output dir
 * there, no colour; then `settings` on top.
 */
export function cliEnv(home: string, settings: Readonly<Record<string, string>> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !/^(GFLOW_|FLOW_CLI_)/.test(key)) env[key] = value;
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    GFLOW_CLI_HOME: home,
    GFLOW_CLI_OUTPUT_DIR: path.join(home, 'out'),
    NO_COLOR: '1',
    ...settings,
  };
}

export interface CliOptions {
  /** GFLOW_CLI_HOME and HOME of the run (default: a fresh temp home). */
  readonly home?: string;
  /** Settings on top of the clean environment (see cliEnv). */
  readonly env?: Readonly<Record<string, string>>;
  /** The working directory (default: the home). */
  readonly cwd?: string;
  /** What stdin carries (default: nothing; it is closed at once). */
  readonly input?: string;
  /** After this long the run's whole process group is killed (default 150 s). */
  readonly timeoutMs?: number;
}

/** A running child in its own process group, so a SIGKILL reaches the Chromium it launched too. */
export interface CliChild {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly done: Promise<CliResult>;
  stdout(): string;
  stderr(): string;
  /** SIGKILL the whole process group (gflow and the browsers it launched). */
  killGroup(): void;
}

/** Spawns `node <script> <args>` (default script: the gflow binary), asynchronously. */
export function spawnCli(args: readonly string[], options: CliOptions & { readonly script?: string } = {}): CliChild {
  const started = Date.now();
  const home = options.home ?? makeHome();
  const child = spawn(process.execPath, [options.script ?? GFLOW_BIN, ...args], {
    env: cliEnv(home, options.env),
    cwd: options.cwd ?? home,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // A child that exits before it reads its stdin closes the pipe under this write (EPIPE): what
  // it did is in its exit code and output, not an error of this process.
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(options.input ?? '');
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({
        stdout,
        stderr,
        exitCode: code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1),
        ms: Date.now() - started,
      }),
    );
  });
  if (child.pid === undefined) throw new Error(`${options.script ?? 'gflow'} did not start`);
  const pid = child.pid;
  return {
    child,
    pid,
    done,
    stdout: () => stdout,
    stderr: () => stderr,
    killGroup: () => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
    },
  };
}

/**
 * Runs the real binary, `node apps/app/bin/gflow.js <args>`, to completion. Always asynchronous:
 * a simulator in this process must keep answering while the child runs.
 */
export async function cli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const run = spawnCli(args, options);
  const timer = setTimeout(() => run.killGroup(), options.timeoutMs ?? 150_000);
  try {
    return await run.done;
  } finally {
    clearTimeout(timer);
  }
}
