import { isatty } from 'node:tty';
import { type CliIo, buildCli, runCli } from '@gflow/cli';
import { appRuntimeFactory } from './appRuntimeFactory.js';
import { APP_COMMANDS } from './appCommands.js';
import { nodeSupport } from '../bin/nodeSupport.js';
import { GFLOW_NODE_RANGE, GFLOW_VERSION } from './version.js';

export interface RunGflowOptions {
  readonly signal?: AbortSignal;
  readonly io?: CliIo;
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /**
   * How to start this binary again (`[process.execPath, <bin/gflow.js>]`, main.ts passes its own):
   * `--no-wait` hands its job to a detached `gflow worker run` started so. Without it the job runs
   * in this process's background and ends with it.
   */
  readonly workerCommand?: readonly string[];
}

function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // isatty(0) rather than process.stdin.isTTY: it does not set up the stdin stream; read when a
    // command asks (a confirmation), so a start that asks nothing never loads node:tty.
    get stdinIsTTY() {
      return isatty(0);
    },
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    // readline loads only when a command asks something (most never do).
    readLine: async (question) => {
      const readline = await import('node:readline');
      return new Promise((resolve) => {
        const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
        rl.question(question, (answer) => {
          rl.close();
          resolve(answer);
        });
        rl.once('close', () => resolve(undefined));
      });
    },
  };
}

/** The whole gflow command line: the CLI tree plus the app's commands (`mcp run`, `serve`, `gallery`); returns the exit code. */
export async function runGflow(argv: readonly string[], options: RunGflowOptions = {}): Promise<number> {
  const io = options.io ?? processIo();
  const root = buildCli({
    version: GFLOW_VERSION,
    extraCommands: APP_COMMANDS,
  });
  return runCli(root, argv, {
    io,
    version: GFLOW_VERSION,
    ...(options.env ? { env: options.env } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    runtimeFactory: appRuntimeFactory((line) => void io.stderr.write(`${line}\n`)),
    node: nodeSupport(process.versions.node, GFLOW_NODE_RANGE),
    ...(options.workerCommand ? { workerCommand: options.workerCommand } : {}),
  });
}
