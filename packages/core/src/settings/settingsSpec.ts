import { z } from 'zod';

/**
 * Every setting gflow reads, declared once: its key, environment variable,
 * schema (which also parses the string form), default and meaning.
 * docs/CONFIGURATION.md is generated from this list (scripts/configDoc.ts)
 * and a test keeps the two in step.
 */
export interface SettingSpec<T extends z.ZodType = z.ZodType> {
  readonly key: string;
  readonly env: string;
  readonly aliases?: readonly string[];
  readonly schema: T;
  /** What the value means and accepts, one sentence for docs and error messages. */
  readonly doc: string;
  /** Accepted values as the error message names them. */
  readonly accepts: string;
  readonly secret?: boolean;
  readonly defaultText: string;
}

const int = (min: number, max: number) =>
  z
    .union([
      z.number(),
      z
        .string()
        .trim()
        .regex(/^-?\d+$/)
        .transform(Number),
    ])
    .pipe(z.number().int().min(min).max(max));

const FALSE_WORDS = new Set(['', '0', 'false', 'off', 'no', 'n', 'f']);
const TRUE_WORDS = new Set(['1', 'true', 'on', 'yes', 'y', 't']);
const bool = () =>
  z.union([
    z.boolean(),
    z.string().transform((value, ctx) => {
      const word = value.trim().toLowerCase();
      if (TRUE_WORDS.has(word)) return true;
      if (FALSE_WORDS.has(word)) return false;
      ctx.addIssue({ code: 'custom', message: 'not a boolean' });
      return z.NEVER;
    }),
  ]);
/** GFLOW_MCP_NO_SPEND: on for any value but the false words (a safety switch fails closed). */
const onUnlessFalse = () =>
  z.union([z.boolean(), z.string().transform((value) => !FALSE_WORDS.has(value.trim().toLowerCase()))]);
const lowerEnum = <const T extends readonly [string, ...string[]]>(values: T) =>
  z
    .string()
    .trim()
    .transform((v) => v.toLowerCase())
    .pipe(z.enum(values));
const text = () => z.string().trim().min(1);
const list = () => z.union([z.array(z.string()), z.string().transform((v) => v.split(/\s+/).filter(Boolean))]);

/**
 * A setting whose schema is built when first read: a run parses only the settings it is given
 * (a start builds one or two schemas, not forty; apps/app/bench/cliStart.bench.ts).
 */
function spec<T extends z.ZodType>(s: Omit<SettingSpec<T>, 'schema'> & { readonly schema: () => T }): SettingSpec<T> {
  const { schema: build, ...rest } = s;
  let schema: T | undefined;
  return {
    ...rest,
    get schema(): T {
      return (schema ??= build());
    },
  };
}

/** Every setting gflow reads, once: its environment variable, zod schema, default and description (docs/CONFIGURATION.md is generated from it). */
export const SETTINGS = {
  home: spec({
    key: 'home',
    env: 'GFLOW_CLI_HOME',
    schema: () => text(),
    accepts: 'a directory path',
    defaultText:
      'the platform data dir (~/.local/share/gflow-cli, ~/Library/Application Support/gflow-cli, %LOCALAPPDATA%\\gflow-cli)',
    doc: 'Root of profiles, config.toml, gflow.db, incidents, flows and locks. Empty means unset.',
  }),
  profile: spec({
    key: 'profile',
    env: 'GFLOW_CLI_PROFILE',
    schema: () => text(),
    accepts: 'a plain profile name',
    defaultText: '–',
    doc: 'Default profile when a command gets no --profile. Not used under --sandbox, whose home has its own default (gflow auth use --sandbox).',
  }),
  project: spec({
    key: 'project',
    env: 'GFLOW_CLI_PROJECT',
    schema: () => text(),
    accepts: 'a Flow project id',
    defaultText: '–',
    doc: 'Flow project to generate into when a call names none.',
  }),
  projectName: spec({
    key: 'projectName',
    env: 'GFLOW_CLI_PROJECT_NAME',
    schema: () => text(),
    accepts: 'a project title',
    defaultText: '–',
    doc: 'Title for projects gflow creates.',
  }),
  outputDir: spec({
    key: 'outputDir',
    env: 'GFLOW_CLI_OUTPUT_DIR',
    schema: () => text(),
    accepts: 'a directory path',
    defaultText: '~/Downloads/gflow-cli',
    doc: 'Root of downloaded media (images/<date>/…, videos/<date>/…). MCP outputs must stay inside it.',
  }),
  dbPath: spec({
    key: 'dbPath',
    env: 'GFLOW_CLI_DB_PATH',
    schema: () => text(),
    accepts: 'a file path',
    defaultText: '<home>/gflow.db',
    doc: 'The SQLite catalog.',
  }),
  catalogBusySeconds: spec({
    key: 'catalogBusySeconds',
    env: 'GFLOW_CLI_CATALOG_BUSY_SECONDS',
    schema: () => int(0, 3600),
    accepts: 'seconds 0–3600',
    defaultText: '30',
    doc: "How long a catalog write waits while another process holds gflow.db's write lock; past it the command fails with CatalogBusyError (exit 42, retryable; nothing changed), naming the gflow processes at work when their profile leases say.",
  }),
  historyPrompts: spec({
    key: 'historyPrompts',
    env: 'GFLOW_CLI_HISTORY_PROMPTS',
    schema: () => lowerEnum(['store', 'redacted']),
    accepts: 'store | redacted',
    defaultText: 'store',
    doc: 'redacted keeps only a hash of prompts and display names in the catalog.',
  }),
  daemonToken: spec({
    key: 'daemonToken',
    env: 'GFLOW_CLI_DAEMON_TOKEN',
    aliases: ['GFLOW_DAEMON_TOKEN'],
    schema: () => z.string().trim().min(16, 'at least 16 characters'),
    accepts: 'a secret of at least 16 characters',
    secret: true,
    defaultText: '–',
    doc: 'Bearer token every request to gflow serve must present; required for non-loopback binds.',
  }),
  mcpSessionIdleSeconds: spec({
    key: 'mcpSessionIdleSeconds',
    env: 'GFLOW_CLI_MCP_SESSION_IDLE_SECONDS',
    schema: () => int(1, 86_400),
    accepts: 'seconds 1–86400',
    defaultText: '600',
    doc: 'gflow serve closes a sessionful MCP session (a 2025-era client, or --transport sse) that sent no request for this long; its client starts a new one (404 on the old id).',
  }),
  mcpMaxSessions: spec({
    key: 'mcpMaxSessions',
    env: 'GFLOW_CLI_MCP_MAX_SESSIONS',
    schema: () => int(1, 10_000),
    accepts: 'a count 1–10000',
    defaultText: '256',
    doc: 'At most this many sessionful MCP sessions in gflow serve; a new one beyond it closes the session idle longest.',
  }),
  daemonPort: spec({
    key: 'daemonPort',
    env: 'GFLOW_DAEMON_PORT',
    schema: () => int(0, 65535),
    accepts: 'a port 0–65535',
    defaultText: '8000',
    doc: 'Default port of gflow serve.',
  }),
  noSpend: spec({
    key: 'noSpend',
    env: 'GFLOW_MCP_NO_SPEND',
    schema: () => onUnlessFalse(),
    accepts: 'any value but empty/0/false/off/no/n/f turns it on',
    defaultText: 'off',
    doc: 'Never register the credit-spending tools (MCP) and refuse spending commands.',
  }),
  maxCreditsPerCall: spec({
    key: 'maxCreditsPerCall',
    env: 'GFLOW_CLI_MAX_CREDITS_PER_CALL',
    schema: () => int(0, 1_000_000),
    accepts: 'credits 0–1000000',
    defaultText: '– (no cap)',
    doc: 'Refuse (budget-exceeded, exit 40) a submit whose quote, read from Flow before the click, is above this; --max-credits / max_credits can only lower it. With a cap set, a submit whose quote cannot be read is refused (fail closed).',
  }),
  dailyCreditBudget: spec({
    key: 'dailyCreditBudget',
    env: 'GFLOW_CLI_DAILY_CREDIT_BUDGET',
    schema: () => int(0, 1_000_000),
    accepts: 'credits 0–1000000',
    defaultText: '– (no budget)',
    doc: "Per profile and local day: refuse (budget-exceeded, exit 40) a submit whose quote would take the day's quoted total in the catalog past this, across every gflow process on the machine. With a budget set, a submit whose quote cannot be read is refused (fail closed).",
  }),
  sandbox: spec({
    key: 'sandbox',
    env: 'GFLOW_CLI_SANDBOX',
    schema: () => bool(),
    accepts: 'true | false',
    defaultText: 'false',
    doc: 'Run against the built-in Flow simulator in a sandbox home; nothing is sent to Google.',
  }),
  llmBaseUrl: spec({
    key: 'llmBaseUrl',
    env: 'GFLOW_CLI_LLM_BASE_URL',
    schema: () => z.url(),
    accepts: 'an https URL (http only on loopback), without credentials',
    defaultText: '– (prompt tools use their built-in templates)',
    doc: 'OpenAI-compatible chat endpoint that prompt tools use to expand prompts (POST <url>/chat/completions); no redirects are followed.',
  }),
  llmApiKey: spec({
    key: 'llmApiKey',
    env: 'GFLOW_CLI_LLM_API_KEY',
    schema: () => z.string().trim().min(1),
    accepts: "the endpoint's API key",
    secret: true,
    defaultText: '–',
    doc: 'Sent as a Bearer header to GFLOW_CLI_LLM_BASE_URL only.',
  }),
  llmModel: spec({
    key: 'llmModel',
    env: 'GFLOW_CLI_LLM_MODEL',
    schema: () => z.string().trim().min(1).max(200),
    accepts: 'a model name the endpoint knows',
    defaultText: 'gemini-2.5-flash',
    doc: 'The chat model prompt tools ask.',
  }),
  sandboxSim: spec({
    key: 'sandboxSim',
    env: 'GFLOW_CLI_SANDBOX_SIM',
    schema: () => z.url(),
    accepts: 'the control URL of a running simulator (http://127.0.0.1:PORT/__sim)',
    defaultText: '– (the sandbox starts its own simulator)',
    doc: 'With --sandbox: attach to an already running Flow simulator (`pnpm --filter @gflow/flow-sim start`) instead of starting one in process.',
  }),
  sandboxSimToken: spec({
    key: 'sandboxSimToken',
    env: 'GFLOW_CLI_SANDBOX_SIM_TOKEN',
    schema: () => z.string().trim().min(8),
    accepts: "the simulator's control token",
    secret: true,
    defaultText: '–',
    doc: 'The bearer token of GFLOW_CLI_SANDBOX_SIM.',
  }),
  authLoginTimeout: spec({
    key: 'authLoginTimeout',
    env: 'GFLOW_CLI_AUTH_LOGIN_TIMEOUT',
    schema: () => int(1, 86_400),
    accepts: 'seconds 1–86400',
    defaultText: '600',
    doc: 'How long gflow auth login waits for the human to sign in.',
  }),
  authBrowser: spec({
    key: 'authBrowser',
    env: 'GFLOW_CLI_AUTH_BROWSER',
    schema: () => lowerEnum(['auto', 'chrome', 'internal']),
    accepts: 'auto | chrome | internal',
    defaultText: 'auto',
    doc: 'Browser for gflow auth login (--browser).',
  }),
  timeoutSeconds: spec({
    key: 'timeoutSeconds',
    env: 'GFLOW_CLI_TIMEOUT_SECONDS',
    schema: () => int(1, 3600),
    accepts: 'seconds 1–3600',
    defaultText: '600',
    doc: 'Upper bound for one generation to become terminal: every phase from the browser session to the result (not the wait for the profile lease, not the download). Past it before the submit: exit 9, retryable, nothing sent; after it: exit 9, not retryable.',
  }),
  recoveryListingSeconds: spec({
    key: 'recoveryListingSeconds',
    env: 'GFLOW_CLI_RECOVERY_LISTING_SECONDS',
    schema: () => int(0, 600),
    accepts: 'seconds 0–600',
    defaultText: '60 for images, 15 for clips',
    doc: "Resuming a run: how long after a step's submit click Flow may still be making what it asked for before its project lists it. Until then a step whose media are not listed yet is looked at again rather than declared unconfirmed. The default follows Flow's measured reply times, three times over.",
  }),
  jitterRange: spec({
    key: 'jitterRange',
    env: 'GFLOW_CLI_JITTER_RANGE',
    schema: () =>
      z
        .string()
        .trim()
        .regex(/^(\d+(\.\d+)?)(-(\d+(\.\d+)?))?$/, 'MIN-MAX, N or 0'),
    accepts: 'MIN-MAX seconds, a single N, or 0',
    defaultText: '0.5-1.5',
    doc: 'Pause between prompts of a batch.',
  }),
  logLevel: spec({
    key: 'logLevel',
    env: 'GFLOW_CLI_LOG_LEVEL',
    schema: () =>
      z
        .string()
        .trim()
        .transform((v) => v.toUpperCase())
        .pipe(z.enum(['DEBUG', 'INFO', 'WARNING', 'ERROR'])),
    accepts: 'DEBUG | INFO | WARNING | ERROR',
    defaultText: 'INFO',
    doc: 'Log level (logs always go to stderr; the details of masked errors also to logs/errors.log in the home). Unset, a terminal shows warnings and errors only, so log lines do not crowd the progress line; -v (DEBUG) or a level set here shows them.',
  }),
  logFormat: spec({
    key: 'logFormat',
    env: 'GFLOW_CLI_LOG_FORMAT',
    schema: () => lowerEnum(['auto', 'text', 'json']),
    accepts: 'auto | text | json',
    defaultText: 'auto',
    doc: 'auto = text on a TTY, json when piped.',
  }),
  leaseWaitSeconds: spec({
    key: 'leaseWaitSeconds',
    env: 'GFLOW_CLI_LEASE_WAIT_SECONDS',
    schema: () => int(0, 3600),
    accepts: 'seconds 0–3600',
    defaultText: '600 for the CLI, 180 for mcp run / serve and background workers',
    doc: "How long a command waits in line for a profile another process holds (a generation, a --no-wait worker, a server) before ProfileLockedError; the waiter says which task it is queued behind. The CLI waits as long as one generation may take (GFLOW_CLI_TIMEOUT_SECONDS' default), so runs started together go one after another. 0 fails fast, except that an idle warm server is still waited for while it hands the profile over (up to 5 s).",
  }),
  headless: spec({
    key: 'headless',
    env: 'GFLOW_CLI_HEADLESS',
    schema: () => bool(),
    accepts: 'true | false',
    defaultText: 'false (true in --sandbox)',
    doc: 'Run the generation browser headless. Google may treat headless browsers as bots.',
  }),
  browserExecutable: spec({
    key: 'browserExecutable',
    env: 'GFLOW_CLI_BROWSER_EXECUTABLE',
    schema: () => text(),
    accepts: 'a Chrome/Chromium binary path',
    defaultText: 'the system Chrome/Chromium',
    doc: 'Browser binary for profiles not marked chrome.',
  }),
  browserArgs: spec({
    key: 'browserArgs',
    env: 'GFLOW_CLI_BROWSER_ARGS',
    schema: () => list(),
    accepts: 'space-separated Chromium flags',
    defaultText: '–',
    doc: 'Extra Chromium launch arguments.',
  }),
  browserProxy: spec({
    key: 'browserProxy',
    env: 'GFLOW_CLI_BROWSER_PROXY',
    schema: () => z.url(),
    accepts: 'a proxy URL',
    defaultText: '–',
    doc: 'Proxy for the generation browser.',
  }),
  flowHost: spec({
    key: 'flowHost',
    env: 'GFLOW_CLI_FLOW_HOST',
    schema: () => lowerEnum(['auto', 'flow.google.com', 'labs.google']),
    accepts: 'auto | flow.google.com | labs.google',
    defaultText: 'auto',
    doc: 'Host routing; labs.google is a kill switch that refuses the migrated host (exit 36).',
  }),
  uiMode: spec({
    key: 'uiMode',
    env: 'GFLOW_CLI_UI_MODE',
    schema: () => lowerEnum(['auto', 'classic', 'agentic']),
    accepts: 'auto | classic | agentic',
    defaultText: 'auto',
    doc: 'Flow UI arm; auto resolves to classic.',
  }),
  agentConfirm: spec({
    key: 'agentConfirm',
    env: 'GFLOW_CLI_AGENT_CONFIRM',
    schema: () => lowerEnum(['always', 'never']),
    accepts: 'always | never',
    defaultText: 'always',
    doc: '"Confirm before generating" in the agent settings of an agent-only composer, for the run (restored afterwards). always: gflow reads each credit confirmation and approves only one that quotes what was asked.',
  }),
  locale: spec({
    key: 'locale',
    env: 'GFLOW_CLI_LOCALE',
    schema: () =>
      z
        .string()
        .trim()
        .regex(/^[a-z]{2,3}(-[A-Z]{2})?$/, 'a BCP 47 tag like en-US'),
    accepts: 'a tag like en-US',
    defaultText: 'en-US',
    doc: 'Accept-Language of the browser only; gflow never reads translated labels.',
  }),
  incidentCapture: spec({
    key: 'incidentCapture',
    env: 'GFLOW_CLI_INCIDENT_CAPTURE',
    schema: () => bool(),
    accepts: 'true | false',
    defaultText: 'true',
    doc: 'Write private incident bundles on driver failures.',
  }),
  flowCheckReminder: spec({
    key: 'flowCheckReminder',
    env: 'GFLOW_CLI_FLOW_CHECK_REMINDER',
    schema: () => bool(),
    accepts: 'true | false',
    defaultText: 'true',
    doc: "Before a paid run, say in one line (a warning on stderr, once per process and profile) when the profile's last free live check (gflow doctor --live) is older than a day or never ran; false turns it off.",
  }),
  harPath: spec({
    key: 'harPath',
    env: 'GFLOW_CLI_HAR_PATH',
    schema: () => text(),
    accepts: 'a file path',
    defaultText: '–',
    doc: 'Record a HAR of the browser session (chmod 0600, secrets included: keep private).',
  }),
  debugTraceback: spec({
    key: 'debugTraceback',
    env: 'GFLOW_CLI_DEBUG_TRACEBACK',
    schema: () => bool(),
    accepts: 'true | false',
    defaultText: 'false',
    doc: 'Show the real text of unexpected errors on the CLI (never in MCP envelopes).',
  }),
  sessionIdleSeconds: spec({
    key: 'sessionIdleSeconds',
    env: 'GFLOW_CLI_SESSION_IDLE_SECONDS',
    schema: () => int(1, 86_400),
    accepts: 'seconds 1–86400',
    defaultText: '300',
    doc: 'A daemon closes a warm browser (and frees the profile lease) after this idle time, or within about a second once another gflow process waits for the profile (right after the running call when busy).',
  }),
  rateLimitCapacity: spec({
    key: 'rateLimitCapacity',
    env: 'GFLOW_CLI_RATE_LIMIT_CAPACITY',
    schema: () => int(1, 1000),
    accepts: 'tokens 1–1000',
    defaultText: '8',
    doc: 'Token-bucket capacity of the spending MCP tools.',
  }),
  rateLimitRefillSeconds: spec({
    key: 'rateLimitRefillSeconds',
    env: 'GFLOW_CLI_RATE_LIMIT_REFILL_SECONDS',
    schema: () => int(1, 86_400),
    accepts: 'seconds 1–86400',
    defaultText: '20',
    doc: 'Seconds to refill one token.',
  }),
  fleetUrl: spec({
    key: 'fleetUrl',
    env: 'GFLOW_FLEET_URL',
    schema: () =>
      z
        .string()
        .trim()
        .regex(/^postgres(ql)?:\/\/\S+$/, 'a postgres:// URL'),
    accepts: 'a postgres:// URL (postgres://USER:PASSWORD@HOST:PORT/DATABASE)',
    secret: true,
    defaultText: "– (one machine: the catalog's own SQLite queue)",
    doc: 'Run as part of a fleet (docs/FLEET.md): the task queue, the runs and the shared catalog are in this PostgreSQL database; `gflow worker --fleet` serves the profiles this machine holds, every other command submits runs any fitting worker takes. The CLI flag is --fleet URL.',
  }),
  fleetPools: spec({
    key: 'fleetPools',
    env: 'GFLOW_FLEET_POOLS',
    schema: () =>
      list().pipe(z.array(z.string().regex(/^[\w.-]{1,64}=[\w.-]{1,64}(,[\w.-]{1,64})*$/, 'POOL=PROFILE[,PROFILE…]'))),
    accepts: 'space-separated POOL=PROFILE[,PROFILE…] entries, e.g. "studio=ana,ben night=cy"',
    defaultText: '– (profiles in no pool: they take runs that name them)',
    doc: "On a fleet worker: the pools its profiles serve. A run submitted with --profile-pool POOL (profile_pool) goes to the pool's profile with the capacity and quota for its kind of work, and moves to the next one when Flow refuses one for quota or unusual activity.",
  }),
  fleetHeartbeatSeconds: spec({
    key: 'fleetHeartbeatSeconds',
    env: 'GFLOW_FLEET_HEARTBEAT_SECONDS',
    schema: () => int(1, 300),
    accepts: 'seconds 1–300',
    defaultText: '5',
    doc: "How often a fleet worker says it is alive (and publishes its profiles' credit facts); one silent three times as long is taken for dead and its rows are settled.",
  }),
  fleetFailoverSeconds: spec({
    key: 'fleetFailoverSeconds',
    env: 'GFLOW_FLEET_FAILOVER_SECONDS',
    schema: () => int(10, 3600),
    accepts: 'seconds 10–3600',
    defaultText: '30',
    doc: "pg-boss's job heartbeat on the fleet: a worker silent this long (killed, frozen, cut off) gives its run back, and another worker holding the profile resumes it (steps that may have been submitted are recovered, never sent again). Applies to profile queues created after it is set.",
  }),
  updateCheck: spec({
    key: 'updateCheck',
    env: 'GFLOW_CLI_UPDATE_CHECK',
    schema: () => bool(),
    accepts: 'true | false',
    defaultText: 'true',
    doc: 'Allow gflow update --check to ask the npm registry (never automatic).',
  }),
} as const;

/** The name of one setting of `SETTINGS` (`home`, `profile`, `outputDir`, …): the keys `flags` takes. */
export type SettingKey = keyof typeof SETTINGS;
/** Settings by key, each optional, as parsed by its schema. */
export type Settings = { -readonly [K in SettingKey]?: z.output<(typeof SETTINGS)[K]['schema']> };
