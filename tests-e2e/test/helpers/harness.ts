// The journeys' shared harness: one Flow simulator per test file (in this
// process, so tests flip its switches and read what it billed), a fresh temp
// GFLOW_CLI_HOME, and the real `gflow` binary in child processes that attach
// to that simulator (GFLOW_CLI_SANDBOX_SIM + token) with --sandbox.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type FlowSim, startFlowSim } from '@gflow/flow-sim';

export const REPO = path.resolve(import.meta.dirname, '..', '..', '..');
export const BIN = path.join(REPO, 'apps', 'gflow', 'bin', 'gflow.js');
/** The account `--sandbox` signs in with (apps/gflow/src/sandbox/sandbox.ts). */
export const SANDBOX_EMAIL = 'sandbox.user@gflow.invalid';
export const SANDBOX_PROFILE = 'sandbox';

export interface E2e {
  readonly sim: FlowSim;
  /** GFLOW_CLI_HOME of the children. */
  readonly home: string;
  /** The sandbox home `--sandbox` uses: `<home>/sandbox` (profiles, gflow.db, output/). */
  readonly sandboxHome: string;
  readonly dbPath: string;
  readonly outputDir: string;
  /** The environment of a child gflow process (no GFLOW_* from the developer's shell). */
  env(extra?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

/** Starts a simulator and makes a fresh home for one test file. */
export async function startE2e(seed: string): Promise<E2e> {
  const sim = await startFlowSim({ seed });
  const home = fs.mkdtempSync(path.join(os.tmpdir(), `gflow-e2e-${seed}-`));
  const sandboxHome = path.join(home, 'sandbox');
  return {
    sim,
    home,
    sandboxHome,
    dbPath: path.join(sandboxHome, 'gflow.db'),
    outputDir: path.join(sandboxHome, 'output'),
    env(extra = {}) {
      const env: Record<string, string> = {};
      for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !/^(GFLOW_|FLOW_CLI_)/.test(key)) env[key] = value;
      return {
        ...env,
        HOME: home,
        XDG_CONFIG_HOME: path.join(home, '.config'),
        GFLOW_CLI_HOME: home,
        GFLOW_CLI_SANDBOX_SIM: sim.control.url,
        GFLOW_CLI_SANDBOX_SIM_TOKEN: sim.control.token,
        GFLOW_CLI_LOG_LEVEL: 'WARNING',
        GFLOW_CLI_TIMEOUT_SECONDS: '120',
        NO_COLOR: '1',
        ...extra,
      };
    },
    async close() {
      await sim.close();
      fs.rmSync(home, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

export interface CliResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
  readonly ms: number;
}

/** A running `gflow` child in its own process group (so a SIGKILL reaches its Chromium too). */
export interface GflowChild {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly done: Promise<CliResult>;
  stdout(): string;
  stderr(): string;
  /** SIGKILL the whole process group (gflow and the browsers it launched). */
  killGroup(): void;
}

export function spawnGflow(args: readonly string[], env: Record<string, string>): GflowChild {
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, ...args], { env, cwd: env['HOME'] ?? os.tmpdir(), stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin?.end('');
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ stdout, stderr, exitCode: code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1), ms: Date.now() - started }));
  });
  if (child.pid === undefined) throw new Error('gflow did not start');
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
 * Runs `gflow …` to completion. Always asynchronous: the simulator lives in
 * this process and must keep answering while the child runs.
 */
export async function gflow(args: readonly string[], env: Record<string, string>, timeoutMs = 150_000): Promise<CliResult> {
  const run = spawnGflow(args, env);
  const timer = setTimeout(() => run.killGroup(), timeoutMs);
  try {
    return await run.done;
  } finally {
    clearTimeout(timer);
  }
}

/** stdout as one JSON document; the message names stdout/stderr when it is not. */
export function json(result: CliResult): Record<string, unknown> {
  try {
    return JSON.parse(result.stdout) as Record<string, unknown>;
  } catch {
    throw new Error(`gflow exited ${result.exitCode} without one JSON document on stdout.\nstdout: ${result.stdout.slice(0, 2000)}\nstderr: ${result.stderr.slice(-3000)}`);
  }
}

/** stdout as JSON Lines (`data list …`). */
export function jsonLines(result: CliResult): Array<Record<string, unknown>> {
  return result.stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Polls `condition` until it returns a truthy value (no sleeps as assertions). */
export async function waitFor<T>(what: string, condition: () => T | Promise<T>, timeoutMs = 60_000, intervalMs = 100): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The rpc ids of the submits the simulator received (ogiZ0b, YhhmEf, eb1hJf, nprQif, MZZa6b, fZytfe). */
export function submits(sim: FlowSim): string[] {
  return sim.received.submits().map((entry) => entry.rpcId);
}

/** Every file under `dir` (recursively); [] when it does not exist. */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => path.join(d.parentPath, d.name));
}
