import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

// Run node itself with the tsx loader (not the tsx CLI, which would add a wrapper process between
// the test and the holder, so a SIGKILL would miss the process that holds the lock).
const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
const FIXTURE = path.resolve(import.meta.dirname, 'fixtures/holder.ts');

/** A running fixtures/holder.ts child with helpers to await its stdout lines. */
export interface HolderProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly pid: number;
  readonly lines: string[];
  /** Resolves with the first line (past or future) starting with `prefix`. */
  line(prefix: string): Promise<string>;
  release(): Promise<void>;
  /** Writes one command line to its stdin ("release", "idle"). */
  send(command: string): void;
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal?: NodeJS.Signals): void;
}

export interface HolderArgs {
  readonly locksDir: string;
  readonly profileDir: string;
  readonly profileName: string;
  readonly waitSeconds?: number;
  /** What it does once it holds the lease (fixtures/holder.ts); default plain. */
  readonly mode?: 'plain' | 'handoff' | 'busy';
}

const running = new Set<ChildProcessWithoutNullStreams>();

/** Starts a holder; every child is killed by killAllHolders() in afterEach. */
export function spawnHolder(args: HolderArgs): HolderProcess {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      FIXTURE,
      args.locksDir,
      args.profileDir,
      args.profileName,
      String(args.waitSeconds ?? 0),
      args.mode ?? 'plain',
    ],
    {
      cwd: REPO_ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  running.add(child);
  const lines: string[] = [];
  const listeners: Array<() => void> = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  readline.createInterface({ input: child.stdout }).on('line', (text) => {
    lines.push(text);
    for (const listener of [...listeners]) listener();
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
      for (const listener of [...listeners]) listener();
    });
  });
  let exitedAlready = false;
  void exit.then(() => (exitedAlready = true));
  const line = (prefix: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = lines.find((l) => l.startsWith(prefix));
        if (found !== undefined) {
          resolve(found);
          return true;
        }
        if (exitedAlready) {
          reject(new Error(`holder exited without "${prefix}"; stdout=${JSON.stringify(lines)} stderr=${stderr}`));
          return true;
        }
        return false;
      };
      if (check()) return;
      const listener = (): void => {
        if (check()) listeners.splice(listeners.indexOf(listener), 1);
      };
      listeners.push(listener);
      void exit.then(() => setImmediate(listener));
    });
  if (child.pid === undefined) throw new Error('holder did not start');
  return {
    child,
    pid: child.pid,
    lines,
    line,
    release: async () => {
      child.stdin.write('release\n');
      await line('released');
    },
    send: (command) => {
      child.stdin.write(`${command}\n`);
    },
    exited: () => exit,
    kill: (signal = 'SIGTERM') => {
      child.kill(signal);
    },
  };
}

/** Kills every holder still running (by its own pid). */
export async function killAllHolders(): Promise<void> {
  const children = [...running];
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}
