import path from 'node:path';
import { ConfigurationError } from '@gflow/errors';
import { homeLayout } from '../home/homeLayout.js';
import { readDotenv } from './dotenv.js';
import { defaultHome, defaultOutputDir } from './platformDirs.js';
import { SETTINGS, type SettingKey, type Settings } from './settingsSpec.js';
import { CLI_DEFAULT_LEASE_WAIT_SECONDS, SERVER_DEFAULT_LEASE_WAIT_SECONDS } from '@gflow/lease/limits';

/** Where a setting's value came from: a flag, the environment, `./.env`, the home's `.env`, or the default. */
export type SettingSource = 'flag' | 'env' | 'cwd-dotenv' | 'home-dotenv' | 'default';

/** Where settings are read from: `flags` (highest), `env` (default `process.env`), `cwd` (its `.env`), then the home's `.env` and the defaults. */
export interface LoadSettingsOptions {
  /** Values from command-line flags (already typed or raw strings). */
  readonly flags?: Partial<Record<SettingKey, unknown>>;
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /**
   * Where the user's configuration is read from (the home `.env`; flows and prompt tools follow it):
   * default the home. The sandbox sets the real home here while its state lives in its own.
   */
  readonly configHome?: string;
}

/** Settings with every default applied, plus where each explicit value came from. */
export interface ResolvedSettings extends Settings {
  readonly home: string;
  /** Where the user's configuration lives (LoadSettingsOptions.configHome); the home unless the sandbox says otherwise. */
  readonly configHome: string;
  readonly outputDir: string;
  readonly dbPath: string;
  readonly catalogBusySeconds: number;
  readonly historyPrompts: 'store' | 'redacted';
  readonly noSpend: boolean;
  readonly sandbox: boolean;
  readonly authLoginTimeout: number;
  readonly authBrowser: 'auto' | 'chrome' | 'internal';
  readonly timeoutSeconds: number;
  readonly jitterRange: string;
  readonly logLevel: 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR';
  readonly logFormat: 'auto' | 'text' | 'json';
  readonly headless: boolean;
  readonly browserArgs: string[];
  readonly flowHost: 'auto' | 'flow.google.com' | 'labs.google';
  readonly uiMode: 'auto' | 'classic' | 'agentic';
  /** "Confirm before generating" on an agent-only composer (GFLOW_CLI_AGENT_CONFIRM). */
  readonly agentConfirm: 'always' | 'never';
  readonly locale: string;
  readonly incidentCapture: boolean;
  /** The one-line reminder before a paid run when the last live check is stale (GFLOW_CLI_FLOW_CHECK_REMINDER). */
  readonly flowCheckReminder: boolean;
  readonly debugTraceback: boolean;
  readonly sessionIdleSeconds: number;
  /** GFLOW_CLI_RECOVERY_LISTING_SECONDS; undefined: the driver's defaults per kind. */
  readonly recoveryListingSeconds?: number;
  readonly rateLimitCapacity: number;
  readonly rateLimitRefillSeconds: number;
  readonly daemonPort: number;
  readonly mcpSessionIdleSeconds: number;
  readonly mcpMaxSessions: number;
  readonly updateCheck: boolean;
  readonly sources: Readonly<Partial<Record<SettingKey, SettingSource>>>;
}

function rawFrom(source: Record<string, string | undefined>, key: SettingKey): string | undefined {
  const spec = SETTINGS[key];
  for (const name of [spec.env, ...(spec.aliases ?? []), spec.env.replace(/^GFLOW_CLI_/, 'FLOW_CLI_')]) {
    const value = source[name];
    // An empty value means unset (as for GFLOW_CLI_HOME), except for switches where "" is a word.
    if (value !== undefined && (value !== '' || key === 'noSpend')) return value;
  }
  return undefined;
}

function parseOne(key: SettingKey, raw: unknown, origin: string): unknown {
  const spec = SETTINGS[key];
  const result = spec.schema.safeParse(raw);
  if (result.success) return result.data;
  const shown = spec.secret ? '<redacted>' : JSON.stringify(raw);
  throw new ConfigurationError(`${spec.env}${origin}: expected ${spec.accepts}, got ${shown}`, {
    remediationHint: `Set ${spec.env} to ${spec.accepts}, or unset it (default: ${spec.defaultText}).`,
    extensions: { setting: spec.env },
  });
}

/**
 * Loads every setting with the precedence flag > environment > `.env` in the
 * working directory > `$GFLOW_CLI_HOME/.env` (the config home's) > default. A bad value throws a
 * ConfigurationError (exit 11) naming the variable and what it accepts.
 */
export function loadSettings(options: LoadSettingsOptions = {}): ResolvedSettings {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const flags = options.flags ?? {};
  const cwdDotenv = readDotenv(path.join(cwd, '.env'));

  const values: Partial<Record<SettingKey, unknown>> = {};
  const sources: Partial<Record<SettingKey, SettingSource>> = {};
  const take = (key: SettingKey, homeDotenv: Record<string, string>): void => {
    const flag = flags[key];
    const layers: Array<[SettingSource, unknown, string]> = [
      ['flag', flag === '' ? undefined : flag, ' (flag)'],
      ['env', rawFrom(env, key), ''],
      ['cwd-dotenv', rawFrom(cwdDotenv, key), ' (.env)'],
      ['home-dotenv', rawFrom(homeDotenv, key), ' (home .env)'],
    ];
    for (const [source, raw, origin] of layers) {
      if (raw === undefined || raw === null) continue;
      values[key] = parseOne(key, raw, origin);
      sources[key] = source;
      return;
    }
  };

  take('home', {});
  const home = path.resolve(cwd, (values.home as string | undefined) ?? defaultHome(env));
  const configHome = options.configHome === undefined ? home : path.resolve(cwd, options.configHome);
  const homeDotenv = readDotenv(homeLayout(home, configHome).dotenv);
  for (const key of Object.keys(SETTINGS) as SettingKey[]) if (key !== 'home') take(key, homeDotenv);

  const v = values as Settings;
  return {
    ...v,
    home,
    configHome,
    outputDir: path.resolve(cwd, v.outputDir ?? defaultOutputDir()),
    dbPath: path.resolve(home, v.dbPath ?? 'gflow.db'),
    catalogBusySeconds: v.catalogBusySeconds ?? 30,
    historyPrompts: v.historyPrompts ?? 'store',
    noSpend: v.noSpend ?? false,
    sandbox: v.sandbox ?? false,
    authLoginTimeout: v.authLoginTimeout ?? 600,
    authBrowser: v.authBrowser ?? 'auto',
    timeoutSeconds: v.timeoutSeconds ?? 600,
    jitterRange: v.jitterRange ?? '0.5-1.5',
    logLevel: v.logLevel ?? 'INFO',
    logFormat: v.logFormat ?? 'auto',
    headless: v.headless ?? false,
    browserArgs: v.browserArgs ?? [],
    flowHost: v.flowHost ?? 'auto',
    uiMode: v.uiMode ?? 'auto',
    agentConfirm: v.agentConfirm ?? 'always',
    locale: v.locale ?? 'en-US',
    incidentCapture: v.incidentCapture ?? true,
    flowCheckReminder: v.flowCheckReminder ?? true,
    debugTraceback: v.debugTraceback ?? false,
    sessionIdleSeconds: v.sessionIdleSeconds ?? 300,
    ...(v.recoveryListingSeconds === undefined ? {} : { recoveryListingSeconds: v.recoveryListingSeconds }),
    rateLimitCapacity: v.rateLimitCapacity ?? 8,
    rateLimitRefillSeconds: v.rateLimitRefillSeconds ?? 20,
    daemonPort: v.daemonPort ?? 8000,
    mcpSessionIdleSeconds: v.mcpSessionIdleSeconds ?? 600,
    mcpMaxSessions: v.mcpMaxSessions ?? 256,
    updateCheck: v.updateCheck ?? true,
    sources,
  };
}

/**
 * The lease wait: an explicit setting wins (0 fails fast); otherwise @gflow/lease's defaults, 600 s
 * for the CLI (it waits in line behind a generation) and 180 s for servers.
 */
export function leaseWaitSecondsFor(settings: ResolvedSettings, surface: 'cli' | 'server'): number {
  return (
    settings.leaseWaitSeconds ??
    (surface === 'server' ? SERVER_DEFAULT_LEASE_WAIT_SECONDS : CLI_DEFAULT_LEASE_WAIT_SECONDS)
  );
}
