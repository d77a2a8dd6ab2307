import type { CommandDef } from './framework/commandSpec.js';
import type { SettingKey } from '@gflow/core';
import { CancelledError, UsageError, isGflowError } from '@gflow/errors';
import { type ParsedValues, parseArgv } from './args/parseArgv.js';
import type { CliIo } from './cliIo.js';
import type { ChildEntry, LeafOutput, LeafSpec } from './framework/commandSpec.js';
import { groupSpecOf, leafFlags, leafSpecOf, loadChild } from './framework/commandSpec.js';
import { type NodeRuntime, createLeafContext } from './framework/leafContext.js';
import { type RuntimeFactory, defaultRuntimeFactory } from './framework/runtimeFactory.js';
import { createProgressReporter, progressModeOf } from './output/progressReporter.js';
import { type FlagsOf, type Invocation, invocationOf, runnableText } from './output/followUps.js';
import { renderFailure } from './output/renderFailure.js';
import { renderHelp } from './output/renderHelp.js';
import { terminalText } from './output/terminalText.js';
import { writeOutput } from './output/writeOutput.js';

export interface RunCliOptions {
  readonly io: CliIo;
  readonly version: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Aborted on Ctrl-C; the command's operation is cancelled and the exit code is 130. */
  readonly signal?: AbortSignal;
  readonly runtimeFactory?: RuntimeFactory;
  /** The running Node against the binary's supported range (`gflow doctor` reports it). */
  readonly node?: NodeRuntime;
  /**
   * How to start this binary again (`[process.execPath, <bin/gflow.js>]`): `--no-wait` hands its
   * job to a detached `gflow worker run` started so. Without it the job runs in this process's
   * background (and ends with it).
   */
  readonly workerCommand?: readonly string[];
}

const HELP = new Set(['-h', '--help']);
const VERBOSE = new Set(['-v', '--verbose']);

function beforeDashDash(argv: readonly string[]): readonly string[] {
  const end = argv.indexOf('--');
  return end < 0 ? argv : argv.slice(0, end);
}

function findChild(children: Readonly<Record<string, ChildEntry>>, token: string): ChildEntry | undefined {
  if (Object.hasOwn(children, token)) return children[token];
  for (const entry of Object.values(children)) {
    const leaf = leafSpecOf(entry);
    if (leaf?.aliases?.includes(token)) return entry;
  }
  return undefined;
}

interface Resolved {
  readonly def: CommandDef;
  readonly path: string[];
  readonly rest: string[];
}

/** Walks the group tree along argv; `lenient` stops at an unknown word instead of refusing it (help). */
async function resolveCommand(root: CommandDef, argv: readonly string[], lenient: boolean): Promise<Resolved> {
  let def = root;
  const path: string[] = [];
  let i = 0;
  for (let group = groupSpecOf(def); group; group = groupSpecOf(def)) {
    const token = argv[i];
    if (token === undefined || token.startsWith('-')) break;
    const entry = findChild(group.children, token);
    if (!entry) {
      if (lenient) break;
      const where = ['gflow', ...path].join(' ');
      throw new UsageError(`Unknown command "${token}" for "${where}". Run '${where} --help' to list the commands.`);
    }
    def = await loadChild(entry);
    path.push(token);
    i++;
  }
  return { def, path, rest: argv.slice(i) };
}

/**
 * Runs the gflow command line and returns the exit code (the app calls
 * process.exit with it). Global flags: -V/--version, -h/--help anywhere,
 * -v/--verbose anywhere.
 */
export async function runCli(root: CommandDef, argv: readonly string[], options: RunCliOptions): Promise<number> {
  const { io, version } = options;
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const signal = options.signal ?? new AbortController().signal;
  const head = beforeDashDash(argv);
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    io.stdout.write(`${version}\n`);
    return 0;
  }
  const settingFlags: Partial<Record<SettingKey, unknown>> = {};
  const args = argv.filter((a, i) => !(VERBOSE.has(a) && i < head.length));
  const verbose = args.length !== argv.length;
  if (verbose) settingFlags.logLevel = 'DEBUG';
  const json = beforeDashDash(args).includes('--json');
  try {
    // `gflow help [command…]` is `gflow [command…] --help` (unless the tree has a command of that name).
    const rootGroup = groupSpecOf(root);
    const asksHelp =
      args[0] === 'help' && rootGroup !== undefined && findChild(rootGroup.children, 'help') === undefined;
    if (asksHelp || beforeDashDash(args).some((a) => HELP.has(a))) {
      const { def, path } = await resolveCommand(root, asksHelp ? args.slice(1) : args, true);
      io.stdout.write(await renderHelp(def, path));
      return 0;
    }
    const { def, path, rest } = await resolveCommand(root, args, false);
    const group = groupSpecOf(def);
    const leaf = leafSpecOf(def) ?? group?.bare;
    if (!leaf) {
      if (rest[0]?.startsWith('-'))
        throw new UsageError(
          `Unknown option ${rest[0]} for "${['gflow', ...path].join(' ')}"; it takes a command first.`,
        );
      io.stdout.write(await renderHelp(def, path));
      return 0;
    }
    return await runLeaf(leaf, path, rest, {
      ...options,
      flagsOf: flagsOfCommand(root),
      env,
      cwd,
      signal,
      json,
      verbose,
      settingFlags,
    });
  } catch (error) {
    return renderFailure(io, error, { json, env, verbose });
  }
}

/** The flag names of the command `words` name in the tree (a follow-up printed for the user), or undefined. */
function flagsOfCommand(root: CommandDef): FlagsOf {
  return async (words) => {
    const { def, path } = await resolveCommand(root, words, true).catch(() => ({ def: root, path: [] }));
    const leaf = path.length === 0 ? undefined : (leafSpecOf(def) ?? groupSpecOf(def)?.bare);
    return leaf === undefined ? undefined : new Set(leafFlags(leaf).map((f) => f.name));
  };
}

/** The text a terminal gets (its text, its notes), with every printed follow-up runnable as printed. */
async function runnableOutput(output: LeafOutput | undefined, invocation: Invocation, flagsOf: FlagsOf) {
  if (output === undefined) return undefined;
  const fix = (text: string): Promise<string> => runnableText(text, invocation, flagsOf);
  return {
    ...output,
    ...(output.text === undefined ? {} : { text: await fix(output.text) }),
    ...(output.notes === undefined ? {} : { notes: await Promise.all(output.notes.map(fix)) }),
  };
}

interface LeafRunOptions extends RunCliOptions {
  readonly flagsOf: FlagsOf;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly signal: AbortSignal;
  readonly json: boolean;
  readonly verbose: boolean;
  readonly settingFlags: Partial<Record<SettingKey, unknown>>;
}

async function runLeaf(
  leaf: LeafSpec,
  path: readonly string[],
  rest: readonly string[],
  options: LeafRunOptions,
): Promise<number> {
  const { io, env, json, verbose } = options;
  let values: ParsedValues;
  try {
    values = parseArgv(rest, leafFlags(leaf), leaf.positionals?.() ?? []);
  } catch (error) {
    return renderFailure(io, error, { json, env, verbose });
  }
  const progress = createProgressReporter(io.stderr, { mode: progressModeOf(values['progress'], env), json });
  const settingFlags = { ...options.settingFlags };
  if (values['sandbox'] === true) settingFlags.sandbox = true;
  if (values['no_spend'] === true) settingFlags.noSpend = true;
  if (typeof values['fleet'] === 'string') settingFlags.fleetUrl = values['fleet'];
  const ctx = createLeafContext({
    io,
    env,
    cwd: options.cwd,
    json,
    signal: options.signal,
    commandPath: path.join(' '),
    version: options.version,
    surface: leaf.surface ?? 'cli',
    settingFlags,
    runtimeFactory: options.runtimeFactory ?? defaultRuntimeFactory,
    progress,
    node: options.node,
    ...(leaf.worker ? { worker: true } : {}),
    workerCommand: options.workerCommand,
  });
  let exitCode = 0;
  try {
    if (typeof values['profile'] === 'string') {
      const { validateProfileName } = await import('@gflow/core/surfaces');
      if (values['profile'] !== 'default') validateProfileName(values['profile']);
      ctx.usageProfile = values['profile'];
    }
    const aborted = new Promise<never>((_, reject) => {
      const onAbort = (): void => reject(Object.assign(new Error('Interrupted'), { name: 'AbortError' }));
      if (options.signal.aborted) onAbort();
      else options.signal.addEventListener('abort', onAbort, { once: true });
    });
    aborted.catch(() => undefined);
    // The argv was parsed once (parseArgv above): the leaf runs with those values.
    const running = leaf.run(ctx, values);
    const result = await (leaf.handlesInterrupt ? running : Promise.race([running, aborted]));
    progress.stop();
    const output = json
      ? (result as LeafOutput | undefined)
      : await runnableOutput(result as LeafOutput | undefined, invocationOf(values), options.flagsOf);
    exitCode = writeOutput(io, output, json);
    if (!json)
      for (const note of output?.notes ?? []) io.stderr.write(`Note: ${terminalText(note, { multiline: true })}\n`);
    const summary = (result as LeafOutput | undefined)?.summary;
    if (summary !== undefined) progress.summarize(summary, exitCode === 0);
  } catch (error) {
    progress.stop();
    exitCode = await reportLeafFailure(
      error,
      ctx.existingGflow !== undefined,
      { ...options, settingFlags },
      invocationOf(values),
    );
  } finally {
    const gflow = ctx.existingGflow;
    if (gflow) {
      if (leaf.recordUsage !== false)
        gflow.recordUsage(ctx.commandPath, ctx.usageProfile, exitCode === 0 ? 'ok' : 'error');
      await gflow.close().catch(() => undefined);
    }
  }
  return exitCode;
}

/**
 * Prints a leaf's failure and returns its exit code: Ctrl-C is a cancellation; an error gflow did
 * not raise, thrown before any runtime opened, still keeps its details in the home's error log.
 */
async function reportLeafFailure(
  error: unknown,
  runtimeOpen: boolean,
  options: LeafRunOptions,
  invocation: Invocation,
): Promise<number> {
  const { io, env, json, verbose } = options;
  const interrupted = options.signal.aborted && !(isGflowError(error) && error.code === 'cancelled');
  const failure = interrupted
    ? new CancelledError('Interrupted (Ctrl-C); the operation was cancelled.', { cause: error })
    : error;
  // The Error and Hint lines' follow-ups, runnable as printed (the --json envelope is left as every surface has it).
  const said = isGflowError(failure) ? [failure.detail, failure.remediationHint ?? ''] : [];
  const fixed = new Map(
    await Promise.all(said.map(async (t) => [t, await runnableText(t, invocation, options.flagsOf)] as const)),
  );
  const rewrite = (text: string): string => fixed.get(text) ?? text;
  const unregister =
    runtimeOpen || isGflowError(failure)
      ? undefined
      : (await import('@gflow/core/surfaces')).registerHomeErrorLog({
          env,
          cwd: options.cwd,
          flags: options.settingFlags,
        });
  try {
    return renderFailure(io, failure, { json, env, verbose, rewrite });
  } finally {
    unregister?.();
  }
}
