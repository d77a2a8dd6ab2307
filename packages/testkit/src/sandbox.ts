// @gflow/testkit/sandbox: journeys. One simulator in the test process (so a test flips its switches
// and reads what it received), a fresh temp GFLOW_CLI_HOME, and the real gflow binary in child
// processes that attach to that simulator with --sandbox (GFLOW_CLI_SANDBOX_SIM + its token).
import path from 'node:path';
import { type FlowSim, type FlowSimOptions, startFlowSim } from '@gflow/flow-sim';
import { type SimBrowser, runtimeBrowserFor } from '@gflow/flow-sim/testing';
import { browserSetting } from '@gflow/tooling/chromium';
import { useStarted } from '@gflow/tooling/useStarted';
import { type CliChild, type CliOptions, cli, makeHome, spawnCli } from './gflowProcess.js';
import type { ConnectOptions, McpConnection } from './mcpClient.js';
import { type ServeProcess, gflowStdio, startServe } from './mcpProcess.js';
import type { CliResult } from './output.js';
import { removeDir } from './tempDir.js';

/** The account and profile `--sandbox` signs in with (@gflow/core/sandbox). */
export const SANDBOX_EMAIL = 'sandbox.user@gflow.invalid';
export const SANDBOX_PROFILE = 'sandbox';

/** How one child runs: the sandbox's home, its settings plus `env`. */
export type SandboxRunOptions = Omit<CliOptions, 'home'>;

export interface Sandbox {
  readonly sim: FlowSim;
  /** GFLOW_CLI_HOME (and HOME) of the children. */
  readonly home: string;
  /** The home `--sandbox` uses: `<home>/sandbox` (profiles, gflow.db, output/). */
  readonly sandboxHome: string;
  readonly dbPath: string;
  readonly outputDir: string;
  /** `browser` of a gflow runtime in this process (createGflow) on the same simulator, as --sandbox sets it. */
  readonly runtimeBrowser: SimBrowser['runtimeBrowser'];
  /** The settings every child gets: attach to this simulator, the tests' Chromium, quiet logs, a 120 s timeout; then `extra`. */
  env(extra?: Readonly<Record<string, string>>): Record<string, string>;
  /** `gflow <args>` to completion (add --sandbox yourself: the refusals without it are tested too). */
  cli(args: readonly string[], options?: SandboxRunOptions): Promise<CliResult>;
  /** `gflow <args>` left running, in its own process group. */
  spawn(args: readonly string[], options?: SandboxRunOptions): CliChild;
  /** `gflow mcp run <args>` with a client on its stdio (the modern era unless said otherwise). */
  mcpStdio(args: readonly string[], options?: SandboxRunOptions & ConnectOptions): Promise<McpConnection>;
  /** `gflow serve --port 0 <args>`. */
  serve(args: readonly string[], options?: SandboxRunOptions): Promise<ServeProcess>;
  /** Signs the sandbox profile in once (`gflow data list profiles --sandbox --json`); throws unless it exits 0. */
  signIn(): Promise<void>;
  close(): Promise<void>;
}

export interface SandboxOptions extends FlowSimOptions {
  readonly seed: string;
  /** Sign the sandbox profile in before the tests (default false). */
  readonly signIn?: boolean;
}

/** Starts a simulator and makes a fresh home for one test file. */
export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  const { signIn: signInFirst, ...simOptions } = options;
  const browser = browserSetting();
  const sim = await startFlowSim(simOptions);
  const home = makeHome(`sandbox-${options.seed}`);
  const sandboxHome = path.join(home, 'sandbox');
  const env = (extra: Readonly<Record<string, string>> = {}): Record<string, string> => ({
    GFLOW_CLI_SANDBOX_SIM: sim.control.url,
    GFLOW_CLI_SANDBOX_SIM_TOKEN: sim.control.token,
    GFLOW_CLI_LOG_LEVEL: 'WARNING',
    GFLOW_CLI_TIMEOUT_SECONDS: '120',
    ...browser,
    ...extra,
  });
  const run = (options: SandboxRunOptions = {}): CliOptions => ({ ...options, home, env: env(options.env) });
  const sandbox: Sandbox = {
    sim,
    home,
    sandboxHome,
    dbPath: path.join(sandboxHome, 'gflow.db'),
    outputDir: path.join(sandboxHome, 'output'),
    runtimeBrowser: runtimeBrowserFor(sim),
    env,
    cli: (args, options) => cli(args, run(options)),
    spawn: (args, options) => spawnCli(args, run(options)),
    mcpStdio: (args, options = {}) => gflowStdio(args, { era: 'modern', ...options, ...run(options) }),
    serve: (args, options) => startServe(args, run(options)),
    async signIn() {
      const first = await sandbox.cli(['data', 'list', 'profiles', '--sandbox', '--json']);
      if (first.exitCode !== 0)
        throw new Error(`the sandbox profile did not sign in (exit ${first.exitCode}):\n${first.stderr.slice(-3000)}`);
    },
    async close() {
      await sim.close();
      removeDir(home);
    },
  };
  if (signInFirst) {
    try {
      await sandbox.signIn();
    } catch (error) {
      await sandbox.close();
      throw error;
    }
  }
  return sandbox;
}

/** startSandbox in the file's beforeAll, closed in its afterAll (see useStarted). */
export function useSandbox(options: SandboxOptions): Sandbox {
  return useStarted('the sandbox', () => startSandbox(options));
}

/** The rpc ids of the submits the simulator received (ogiZ0b, YhhmEf, eb1hJf, nprQif, MZZa6b, fZytfe). */
export function submits(sim: FlowSim): string[] {
  return sim.received.submits().map((entry) => entry.rpcId);
}
