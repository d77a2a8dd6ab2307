import { loadOptionalPeer } from '../runtime/optionalPeer.js';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '@gflow/errors';
import { ACCOUNT_MARKER } from '@gflow/flow-facts';
import { readConfigToml, writeConfigToml } from '../home/configToml.js';
import { homeLayout } from '../home/homeLayout.js';
import type { LogSink } from '../runtime/logger.js';
import { createGflow } from '../runtime/createGflow.js';
import { assertSupportedNode } from '../runtime/nodeSupport.js';
import type { CreateGflowOptions, Gflow } from '../runtime/gflow.js';
import type { JobLauncher } from '../runtime/runtimeServices.js';
import { SURFACE_POLICY, type Surface } from '../runtime/surfacePolicy.js';
import { type LoadSettingsOptions, type ResolvedSettings, loadSettings } from '../settings/loadSettings.js';
import type { SettingKey } from '../settings/settingsSpec.js';
import type { FlowSim } from '@gflow/flow-sim';
import type * as FlowSimModule from '@gflow/flow-sim';

/** The simulated Google account the sandbox signs in with. */
export const SANDBOX_ACCOUNT = 'sandbox.user@gflow.invalid';
/** The profile the sandbox provisions on first use (and makes the sandbox home's default). */
export const SANDBOX_PROFILE = 'sandbox';
/** The credits the simulated account starts with. */
export const SANDBOX_CREDITS = 1000;
/** The simulated account's password (only the simulator ever sees it). */
const SANDBOX_PASSWORD = 'sandbox-only';
/** The line the sandbox says (through `notify`) each time it opens. */
export const SANDBOX_NOTICE =
  'gflow sandbox: using the built-in Flow simulator on this machine; nothing is sent to Google and no credits are spent.';

/**
 * How to open the sandbox: where settings come from, the logger, warm sessions and the throwing
 * mode (as `createGflow`'s), the surface, and the CLI's extras.
 */
export interface OpenSandboxOptions
  extends LoadSettingsOptions, Pick<CreateGflowOptions, 'logger' | 'keepSessionsWarm' | 'throwOnFailure'> {
  /** The surface the runtime serves (`library` by default; the CLI passes its own). */
  readonly surface?: Surface;
  /** Where notices go (stderr by default; never stdout, which may carry JSON-RPC). */
  readonly notify?: (line: string) => void;
  /** A background worker's runtime (`gflow worker run --sandbox`). @internal */
  readonly worker?: boolean;
  /** Where the runtime's wait=false generations run (the CLI's detached worker). @internal */
  readonly background?: JobLauncher;
  /** Where the runtime's log lines go (the CLI: through its progress line). */
  readonly logSink?: LogSink;
  /**
   * Sign the sandbox profile in on first use (default true). False for a command that never opens
   * a browser (`telemetry status`): nothing is signed in, no browser starts.
   */
  readonly signIn?: boolean;
}

/**
 * An open sandbox: the runtime (closing it stops the simulator too), the simulator and the sandbox
 * home. `await using sandbox = await openSandbox()` closes it at the end of the block.
 */
export interface SandboxRuntime {
  /** A gflow runtime whose browser reaches the simulator instead of Google; `gflow.close()` stops the simulator. */
  readonly gflow: Gflow;
  /** The in-process simulator; undefined when attached to a running one (GFLOW_CLI_SANDBOX_SIM). */
  readonly sim: FlowSim | undefined;
  /** The sandbox's own home (`<home>/sandbox`): its profile, catalog and output directory. */
  readonly home: string;
  /** Closes the runtime and the simulator (`gflow.close()`). */
  [Symbol.asyncDispose](): Promise<void>;
}

/** What the sandbox needs of a simulator, in process or over its control endpoint. */
interface SimLink {
  readonly chromiumArgs: readonly string[];
  readonly proxy: string;
  ensureAccount(): Promise<void>;
  /** Whether the simulated Google has this account (a scenario made it). */
  hasAccount(email: string): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Loads the simulator: an optional peer of @gflow/core (its TLS tree would weigh on every install),
 * so a program that opens the sandbox installs it beside core.
 */
export async function loadFlowSim(
  load: () => Promise<typeof FlowSimModule> = () => import('@gflow/flow-sim'),
): Promise<typeof FlowSimModule> {
  return loadOptionalPeer('@gflow/flow-sim', 'The sandbox (the Flow simulator)', load);
}

async function inProcessSim(home: string): Promise<SimLink & { sim: FlowSim }> {
  const { startFlowSim } = await loadFlowSim();
  // A fresh seed per start: Flow never reuses an id, and the sandbox catalog outlives the
  // simulator, so a second demo run must not mint the first run's media ids again.
  const sim = await startFlowSim({
    dataDir: path.join(home, 'flow-sim'),
    seed: `sandbox-${randomBytes(8).toString('hex')}`,
  });
  return {
    sim,
    chromiumArgs: sim.chromiumArgs,
    proxy: sim.proxy.server,
    ensureAccount: async () => {
      if (!sim.scenario.getAccount(SANDBOX_ACCOUNT))
        sim.scenario.createAccount({
          email: SANDBOX_ACCOUNT,
          password: SANDBOX_PASSWORD,
          credits: SANDBOX_CREDITS,
          uploadTermsAccepted: true,
        });
    },
    hasAccount: async (email) => sim.scenario.getAccount(email) !== undefined,
    close: () => sim.close(),
  };
}

/** Attaches to a simulator another process runs (tests steer it through its control endpoint). */
async function attachedSim(url: string, token: string): Promise<SimLink> {
  const call = async (pathName: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${url.replace(/\/$/, '')}${pathName}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok)
      throw new ConfigurationError(`The simulator at GFLOW_CLI_SANDBOX_SIM answered ${response.status}.`);
    return response.json();
  };
  const launch = (await call('/launch')) as { chromiumArgs: string[]; proxy?: { server: string } };
  if (!launch.proxy)
    throw new ConfigurationError('The simulator at GFLOW_CLI_SANDBOX_SIM offers no proxy; update @gflow/flow-sim.');
  return {
    chromiumArgs: launch.chromiumArgs,
    proxy: launch.proxy.server,
    ensureAccount: async () => {
      const found = (await call('/scenario', { method: 'getAccount', args: [SANDBOX_ACCOUNT] })) as {
        result?: unknown;
      };
      if (!found.result)
        await call('/scenario', {
          method: 'createAccount',
          args: [
            { email: SANDBOX_ACCOUNT, password: SANDBOX_PASSWORD, credits: SANDBOX_CREDITS, uploadTermsAccepted: true },
          ],
        });
    },
    hasAccount: async (email) =>
      Boolean(((await call('/scenario', { method: 'getAccount', args: [email] })) as { result?: unknown }).result),
    close: async () => undefined,
  };
}

/**
 * The sandbox's settings: the user's, with the sandbox's state paths. GFLOW_CLI_PROFILE from the
 * environment or a .env names one of the user's real profiles, so it is not used here: the sandbox
 * home's own default (`default_profile` in its config.toml, which `gflow auth use --sandbox`
 * writes, `sandbox` until then) is the default profile, and a notice says so. A server's
 * --profile flag is kept.
 */
function sandboxSettings(
  options: LoadSettingsOptions,
  env: NodeJS.ProcessEnv,
  real: ResolvedSettings,
  notify: (line: string) => void,
) {
  const settings = loadSettings({ ...options, env, configHome: real.configHome });
  const source = settings.sources.profile;
  if (source === 'flag' || settings.profile === undefined) return settings;
  const where = { env: 'the environment', 'cwd-dotenv': "the working directory's .env" }[source as string];
  notify(
    `gflow sandbox: GFLOW_CLI_PROFILE=${settings.profile} (from ${where ?? 'the home .env'}) names a real profile and is not used here; the sandbox's default profile is its own (gflow auth use NAME --sandbox sets it).`,
  );
  const { profile: _real, sources, ...rest } = settings;
  const { profile: _source, ...otherSources } = sources;
  return { ...rest, sources: otherSources };
}

/** What the sandbox passes on to `createGflow` as it was given: the runtime's choices that are not settings. */
export function runtimeChoices(options: OpenSandboxOptions): Partial<CreateGflowOptions> {
  const given = {
    worker: options.worker,
    background: options.background,
    logSink: options.logSink,
    logger: options.logger,
    keepSessionsWarm: options.keepSessionsWarm,
    throwOnFailure: options.throwOnFailure,
  };
  return Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
}

/**
 * The sandbox (the CLI's `--sandbox`, a library's zero-credit try-out): starts the Flow simulator
 * in this process and returns a gflow runtime whose home is `<home>/sandbox` (its own profiles, catalog, config.toml
 * and outputs, so the real ones are untouched; the configuration — the home
 * `.env`, flows and prompt tools — stays the user's) and whose browser maps
 * Google's hosts to the simulator. The first use that may open a browser
 * provisions a `sandbox` profile signed in through the real login flow against
 * the simulator's sign-in page, and makes it the sandbox home's default.
 * Nothing is sent to Google and no credits are spent; `gflow.close()` stops the simulator.
 *
 * @example
 * const { gflow } = await openSandbox();
 * const image = await gflow.run('generateImage', { prompt: 'a lighthouse at dusk' });
 * await gflow.close();
 */
export async function openSandbox(options: OpenSandboxOptions = {}): Promise<SandboxRuntime> {
  assertSupportedNode();
  const notify = options.notify ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const env = options.env ?? process.env;
  const real = loadSettings(options);
  const home = path.join(real.home, 'sandbox');
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  const link = real.sandboxSim
    ? await attachedSim(real.sandboxSim, real.sandboxSimToken ?? '')
    : await inProcessSim(home);
  try {
    await link.ensureAccount();
    const sandboxEnv: NodeJS.ProcessEnv = {
      ...env,
      GFLOW_CLI_HOME: home,
      GFLOW_CLI_DB_PATH: path.join(home, 'gflow.db'),
      GFLOW_CLI_OUTPUT_DIR: env['GFLOW_CLI_SANDBOX_OUTPUT_DIR'] || path.join(home, 'output'),
    };
    const flags: Partial<Record<SettingKey, unknown>> = { ...options.flags, home };
    const gflow = createGflow({
      surface: options.surface ?? 'library',
      // State is the sandbox's own; configuration (the home .env, flows, prompt tools) is the user's.
      settings: sandboxSettings({ ...(options.cwd ? { cwd: options.cwd } : {}), flags }, sandboxEnv, real, notify),
      browser: {
        extraArgs: [...link.chromiumArgs],
        proxy: link.proxy,
        ignoreHTTPSErrors: true,
        headless: true,
        sandbox: true,
        autofillLogin: {
          email: SANDBOX_ACCOUNT,
          password: SANDBOX_PASSWORD,
          knows: (email) => link.hasAccount(email),
        },
      },
      ...runtimeChoices(options),
    });
    gflow.onClose(() => link.close());
    notify(SANDBOX_NOTICE);
    if (options.signIn !== false) await signInFor(gflow, notify);
    return {
      gflow,
      sim: 'sim' in link ? (link.sim as FlowSim) : undefined,
      home,
      [Symbol.asyncDispose]: () => gflow.close(),
    };
  } catch (error) {
    await link.close();
    throw error;
  }
}

/** The sign-in, before the runtime is handed over, or in its background on a server (SURFACE_POLICY warmUp). */
async function signInFor(gflow: Gflow, notify: (line: string) => void): Promise<void> {
  if (SURFACE_POLICY[gflow.surface].warmUp === 'before') return provisionSandboxProfile(gflow, notify);
  gflow.warmUp('sandbox: signing the sandbox profile in to the simulator', async () => {
    try {
      await provisionSandboxProfile(gflow, notify);
    } catch (error) {
      gflow.logger.warn('sandbox.sign_in_failed', { error: String(error) });
      throw error;
    }
  });
}

/**
 * Signs the sandbox profile in once (the real login flow, against the simulator), and makes it
 * the sandbox home's default profile when that home has none (`gflow auth use --sandbox` changes it).
 */
export async function provisionSandboxProfile(gflow: Gflow, notify: (line: string) => void): Promise<void> {
  const layout = homeLayout(gflow.settings.home);
  if (!fs.existsSync(path.join(layout.profileDir(SANDBOX_PROFILE), ACCOUNT_MARKER))) {
    notify('gflow sandbox: first use; signing the sandbox profile in to the simulator…');
    await gflow.run('authLogin', { profile: SANDBOX_PROFILE, browser: 'internal', account: SANDBOX_ACCOUNT });
  }
  const config = readConfigToml(layout.configToml);
  if (typeof config.default_profile !== 'string' || !config.default_profile)
    writeConfigToml(layout.configToml, { ...config, default_profile: SANDBOX_PROFILE });
}
