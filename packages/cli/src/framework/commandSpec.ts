import type { Surface } from '@gflow/core';
import type { FlagSpec, PositionalSpec } from '../args/flagSpec.js';
import { FLEET_FLAG, JSON_FLAG, PROGRESS_FLAG, SANDBOX_FLAG } from '../args/flagSpec.js';
import type { ParsedValues } from '../args/parseArgv.js';
import type { LeafContext } from './leafContext.js';

/** What a leaf hands back; the runner renders it (JSON, JSONL or text). */
export interface LeafOutput {
  /** The JSON document written with --json. */
  readonly data?: unknown;
  /** Rows written as JSON Lines with --json, and whenever stdout is not a TTY when `jsonlWhenPiped`. */
  readonly jsonl?: readonly unknown[];
  readonly jsonlWhenPiped?: boolean;
  /** Human output for a terminal; defaults to pretty JSON of `data`. */
  readonly text?: string;
  /** A non-zero verdict that is not an error (auth status "not verified" → 1, doctor findings → 33). */
  readonly exitCode?: number;
  /** What the run made and where, for the one summary line a terminal gets last (with the run's time). */
  readonly summary?: string;
  /** What the user should know that is not the output (a file named otherwise than asked): `Note:` lines on stderr without --json (the JSON carries them itself). */
  readonly notes?: readonly string[];
}

export interface LeafSpec {
  readonly name: string;
  readonly description: string;
  readonly examples?: readonly string[];
  /** The core operation this command runs (for parity and the "not available yet" message). */
  readonly operation?: string;
  /** Built on first use (help or run), so unrelated commands never build them. */
  readonly flags?: () => readonly FlagSpec[];
  readonly positionals?: () => readonly PositionalSpec[];
  /** Adds --json (default true). */
  readonly json?: boolean;
  /** Adds --sandbox (default true; the runtime then runs against the built-in simulator). */
  readonly sandbox?: boolean;
  /** Adds --fleet URL (default: wherever --sandbox is; the runtime then works on the fleet's PostgreSQL). */
  readonly fleet?: boolean;
  /** The command stops itself on Ctrl-C (servers); the runner then does not cut it short. */
  readonly handlesInterrupt?: boolean;
  /** Record the invocation for usage statistics (default true). */
  readonly recordUsage?: boolean;
  /** The runtime surface (mcp run → 'mcp', serve → 'http'); default 'cli'. */
  readonly surface?: Surface;
  /** The command is the background worker (`worker run`): its runtime is a worker's (core's CreateGflowOptions.worker). */
  readonly worker?: boolean;
  readonly aliases?: readonly string[];
  readonly hidden?: boolean;
  run(ctx: LeafContext, values: ParsedValues): Promise<LeafOutput | undefined>;
}

/**
 * A command of gflow's tree, built by defineLeaf or defineGroup. It is a handle: what the command
 * is (its flags, children, help) is its spec, read back with leafSpecOf / groupSpecOf. The parser
 * (parseArgv), the help (renderHelp) and the tree walk (walkCommands) are ours; no CLI framework
 * sits under them (docs/ARCHITECTURE.md).
 */
export interface CommandDef {
  readonly name: string;
  readonly kind: 'leaf' | 'group';
}

/** A child of a group: a command, or a lazily loaded one with its summary for help. */
export type ChildEntry =
  CommandDef | { readonly description: string; readonly load: () => Promise<CommandDef>; readonly hidden?: boolean };

export interface GroupSpec {
  readonly name: string;
  readonly description: string;
  readonly examples?: readonly string[];
  readonly children: Readonly<Record<string, ChildEntry>>;
  /** What runs when the group is called without a subcommand (e.g. bare `gflow auth`). */
  readonly bare?: LeafSpec;
  readonly version?: string;
}

const LEAVES = new WeakMap<object, LeafSpec>();
const GROUPS = new WeakMap<object, GroupSpec>();

/** The leaf's full flag list (its own plus --json). */
export function leafFlags(spec: LeafSpec): FlagSpec[] {
  const flags = [...(spec.flags?.() ?? [])];
  if (spec.sandbox !== false && !flags.some((f) => f.key === 'sandbox')) flags.push(SANDBOX_FLAG);
  if ((spec.fleet ?? spec.sandbox) !== false && !flags.some((f) => f.key === 'fleet')) flags.push(FLEET_FLAG);
  if (spec.json !== false && !flags.some((f) => f.key === 'json')) flags.push(JSON_FLAG);
  // Commands that run core operations report progress (a terminal line, or JSON lines for scripts).
  if (spec.operation !== undefined && !flags.some((f) => f.key === 'progress')) flags.push(PROGRESS_FLAG);
  return flags;
}

/** A leaf command for a LeafSpec; runCli parses the argv once and runs the spec. */
export function defineLeaf(spec: LeafSpec): CommandDef {
  const def: CommandDef = { name: spec.name, kind: 'leaf' };
  LEAVES.set(def, spec);
  return def;
}

/** A group of commands; children may load lazily. */
export function defineGroup(spec: GroupSpec): CommandDef {
  const def: CommandDef = { name: spec.name, kind: 'group' };
  GROUPS.set(def, spec);
  return def;
}

export function leafSpecOf(def: unknown): LeafSpec | undefined {
  return typeof def === 'object' && def !== null ? LEAVES.get(def) : undefined;
}

export function groupSpecOf(def: unknown): GroupSpec | undefined {
  return typeof def === 'object' && def !== null ? GROUPS.get(def) : undefined;
}

/** The summary of a child without loading it. */
export async function childSummary(entry: ChildEntry): Promise<{ description: string; hidden: boolean }> {
  if ('load' in entry && typeof entry.load === 'function')
    return { description: entry.description as string, hidden: entry.hidden === true };
  const def = entry as CommandDef;
  const leaf = leafSpecOf(def);
  const group = groupSpecOf(def);
  return { description: leaf?.description ?? group?.description ?? '', hidden: leaf?.hidden === true };
}

/**
 * Resolves a child entry to its command, with the core operation it runs loaded (its module and
 * zod schemas, which its flags and help derive from): a command loads its own operation, never
 * every one.
 */
export async function loadChild(entry: ChildEntry): Promise<CommandDef> {
  const def = 'load' in entry && typeof entry.load === 'function' ? await entry.load() : (entry as CommandDef);
  const names = [leafSpecOf(def)?.operation, groupSpecOf(def)?.bare?.operation].filter(
    (name): name is string => name !== undefined,
  );
  if (names.length > 0) {
    const { operationEntry } = await import('@gflow/core/surfaces');
    await Promise.all(names.map((name) => operationEntry(name)?.load()));
  }
  return def;
}
