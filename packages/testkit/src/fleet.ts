// @gflow/testkit/fleet: a fleet of gflow workers for journeys (issue 46). Each worker is the real
// binary in a home of its own (a machine), with --sandbox attached to the test's simulator and
// --fleet on the test's PostgreSQL; its profiles are signed in to simulated accounts of their own.
import { type CliChild, cli, makeHome, spawnCli } from './gflowProcess.js';
import type { Sandbox } from './sandbox.js';
import { removeDir } from './tempDir.js';
import { waitFor } from './waitFor.js';

export interface FleetWorkerOptions {
  readonly name: string;
  /** Profiles this machine holds, each signed in to `<profile>@gflow.invalid` unless `accounts` says otherwise. */
  readonly profiles: readonly string[];
  readonly accounts?: Readonly<Record<string, string>>;
  /** GFLOW_FLEET_POOLS of this machine. */
  readonly pools?: string;
  /** Settings of the worker on top of the sandbox's. */
  readonly env?: Readonly<Record<string, string>>;
}

export interface FleetWorker {
  readonly name: string;
  readonly home: string;
  readonly profiles: readonly string[];
  /** The running worker process (undefined until started, and after a kill). */
  readonly process: CliChild | undefined;
  /** Starts (or restarts) the worker; resolves once it serves its profiles. */
  start(): Promise<void>;
  /** SIGKILLs the worker's process group (its browsers too), as a machine dying would. */
  kill(): void;
  /** Stops it with SIGTERM and waits for it to leave. */
  stop(): Promise<void>;
  /** Everything the worker wrote to stderr (its JSON log lines). */
  log(): string;
  close(): Promise<void>;
}

/** The account a journey's profile signs in to. */
export function accountOf(profile: string): string {
  return `${profile}@gflow.invalid`;
}

/** Exits of a sign-in that a second try cannot change: a refused account (38), a bad parameter (2). */
const FINAL_LOGIN_EXITS = new Set([2, 38]);

/**
 * Signs one profile in (the real login flow against the simulator). This is the machine's setup,
 * not what a fleet journey tests (the auth journeys do): a sign-in that failed for any other reason
 * is tried once more, and the first failure is printed (its problem document included) so a run's
 * log still shows it.
 */
async function signIn(
  sandbox: Sandbox,
  machine: { readonly name: string; readonly home: string; readonly env: Readonly<Record<string, string>> },
  profile: string,
  account: string,
): Promise<void> {
  const args = ['auth', 'login', '--profile', profile, '--account', account, '--sandbox', '--json'];
  let failure = '';
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    const login = await cli(args, { home: machine.home, env: sandbox.env(machine.env) });
    if (login.exitCode === 0) return;
    failure = `${machine.name}: ${profile} did not sign in (exit ${login.exitCode}): ${login.stdout.slice(0, 2000)}\n${login.stderr.slice(-2000)}`;
    if (FINAL_LOGIN_EXITS.has(login.exitCode) || attempt === 2) break;
    process.stderr.write(`${failure}\n(trying the sign-in once more)\n`);
  }
  throw new Error(failure);
}

/**
 * A worker machine: a home of its own, its profiles signed in (the real login flow against the
 * simulator, `gflow auth login --sandbox --account`), then `gflow worker --fleet URL --sandbox`.
 * `sharedOutput` is the directory every machine writes (the test's stand-in for a mounted share).
 */
export async function fleetWorker(
  sandbox: Sandbox,
  fleetUrl: string,
  sharedOutput: string,
  options: FleetWorkerOptions,
): Promise<FleetWorker> {
  const home = makeHome(`fleet-${options.name}`);
  const env = {
    GFLOW_CLI_SANDBOX_OUTPUT_DIR: sharedOutput,
    GFLOW_FLEET_HEARTBEAT_SECONDS: '1',
    GFLOW_FLEET_FAILOVER_SECONDS: '10',
    ...(options.pools ? { GFLOW_FLEET_POOLS: options.pools } : {}),
    ...options.env,
  };
  for (const profile of options.profiles) {
    const account = options.accounts?.[profile] ?? accountOf(profile);
    // One account per profile, made as a person's would be: the upload-rights dialog already accepted.
    if (!sandbox.sim.scenario.getAccount(account))
      sandbox.sim.scenario.createAccount({ email: account, uploadTermsAccepted: true });
    await signIn(sandbox, { name: options.name, home, env }, profile, account);
  }
  let child: CliChild | undefined;
  let earlier = '';
  const worker: FleetWorker = {
    name: options.name,
    home,
    profiles: options.profiles,
    get process() {
      return child;
    },
    async start() {
      const args = ['worker', '--fleet', fleetUrl, '--sandbox', ...options.profiles.flatMap((p) => ['--profile', p])];
      const started = spawnCli(args, { home, env: sandbox.env(env) });
      child = started;
      await waitFor(
        `${options.name} to serve its profiles`,
        () => {
          if (started.stderr().includes('fleet worker: serving')) return true;
          if (started.child.exitCode !== null)
            throw new Error(`${options.name} exited ${started.child.exitCode}: ${started.stderr().slice(-3000)}`);
          return false;
        },
        90_000,
        100,
      );
    },
    kill() {
      if (child === undefined) return;
      earlier += child.stderr();
      child.killGroup();
      child = undefined;
    },
    async stop() {
      if (child === undefined) return;
      const running = child;
      child = undefined;
      try {
        process.kill(running.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      const ended = await Promise.race([running.done, new Promise((r) => setTimeout(r, 30_000, undefined))]);
      if (ended === undefined) running.killGroup();
      earlier += running.stderr();
    },
    log: () => earlier + (child?.stderr() ?? ''),
    async close() {
      await worker.stop();
      removeDir(home);
    },
  };
  return worker;
}
