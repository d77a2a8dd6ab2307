import {
  type ChildEntry,
  type FlagSpec,
  type LeafSpec,
  type PositionalSpec,
  buildCli,
  groupSpecOf,
  leafFlags,
  leafSpecOf,
} from '@gflow/cli';
import { APP_COMMANDS, GFLOW_VERSION } from '@gflow/app';

type CommandDef = ReturnType<typeof buildCli>;

/** One runnable command of the tree: a leaf, or a group that runs bare (`gflow auth`). */
export interface CliLeaf {
  /** Space-separated words after `gflow` (`'data list projects'`). */
  readonly path: string;
  readonly spec: LeafSpec;
  /** Every flag, including the shared `--json` / `--sandbox`. */
  readonly flags: readonly FlagSpec[];
  readonly positionals: readonly PositionalSpec[];
  /** A group's bare command rather than a leaf. */
  readonly bare: boolean;
}

/** The tree the `gflow` binary exposes: the CLI package's commands plus the app's (`mcp run`, `serve`, `gallery`). */
export function fullCliTree(): CommandDef {
  return buildCli({ version: GFLOW_VERSION, extraCommands: APP_COMMANDS });
}

function loadEntry(entry: ChildEntry): Promise<CommandDef> {
  return 'load' in entry && typeof entry.load === 'function' ? entry.load() : Promise.resolve(entry as CommandDef);
}

function leafOf(path: readonly string[], spec: LeafSpec, bare: boolean): CliLeaf {
  return { path: path.join(' '), spec, flags: leafFlags(spec), positionals: spec.positionals?.() ?? [], bare };
}

/**
 * Every runnable command, loading each lazy group. Unlike `walkCli` from
 * @gflow/cli this also yields a group's bare command (a Click group with
 * invoke_without_command, in the upstream parity test's words).
 */
export async function walkFullTree(root: CommandDef = fullCliTree()): Promise<CliLeaf[]> {
  const out: CliLeaf[] = [];
  const visit = async (def: CommandDef, path: readonly string[]): Promise<void> => {
    const group = groupSpecOf(def);
    if (!group) {
      const spec = leafSpecOf(def);
      if (!spec) throw new Error(`gflow ${path.join(' ')} is neither a leaf nor a group built by @gflow/cli`);
      out.push(leafOf(path, spec, false));
      return;
    }
    if (group.bare && path.length > 0) out.push(leafOf(path, group.bare, true));
    for (const [name, entry] of Object.entries(group.children)) await visit(await loadEntry(entry), [...path, name]);
  };
  await visit(root, []);
  return out;
}
