import type { CommandDef } from '../framework/commandSpec.js';
import type { FlagSpec } from '../args/flagSpec.js';
import { childSummary, groupSpecOf, leafFlags, leafSpecOf } from '../framework/commandSpec.js';

function columns(rows: ReadonlyArray<readonly [string, string]>, indent = '  '): string {
  const width = Math.min(34, Math.max(0, ...rows.map(([left]) => left.length)));
  return rows
    .map(([left, right]) =>
      (left.length > width
        ? `${indent}${left}\n${indent}${' '.repeat(width)}  ${right}`
        : `${indent}${left.padEnd(width)}  ${right}`
      ).trimEnd(),
    )
    .join('\n');
}

function flagLabel(f: FlagSpec): string {
  const names = [...(f.aliases ?? []).map((a) => (a.length === 1 ? `-${a}` : `--${a}`)), `--${f.name}`];
  if (f.kind === 'boolean')
    return f.shownDefault === true || f.defaultValue === true
      ? `${names.join(', ')}, --no-${f.name}`
      : names.join(', ');
  const hint =
    f.valueHint ?? (f.options ? f.options.join('|') : f.kind === 'number' ? 'N' : f.kind === 'json' ? 'JSON' : 'TEXT');
  return `${names.join(', ')} ${hint}${f.repeatable ? ' ...' : ''}`;
}

function flagText(f: FlagSpec): string {
  const notes: string[] = [];
  if (f.required && f.defaultValue === undefined) notes.push('required');
  if (f.repeatable) notes.push('repeatable');
  const shown = f.defaultValue ?? f.shownDefault;
  if (shown !== undefined && f.kind !== 'boolean') notes.push(`default: ${String(shown)}`);
  const description = (f.description ?? '').split(/(?<=\.)\s/)[0] ?? '';
  return [description, notes.length ? `(${notes.join('; ')})` : ''].filter(Boolean).join(' ');
}

const GLOBAL_ROWS: ReadonlyArray<readonly [string, string]> = [
  ['-h, --help', 'Show help for any command.'],
  ['-V, --version', 'Print the gflow version.'],
  ['-v, --verbose', 'Debug logging on stderr (GFLOW_CLI_LOG_LEVEL=DEBUG).'],
];

/** The help text of a group or a leaf: usage, arguments, options, subcommands and examples. */
export async function renderHelp(def: CommandDef, path: readonly string[]): Promise<string> {
  const full = ['gflow', ...path].join(' ');
  const lines: string[] = [];
  const leaf = leafSpecOf(def);
  const group = groupSpecOf(def);
  if (leaf) {
    const positionals = leaf.positionals?.() ?? [];
    const usage = positionals.map((p) =>
      p.required ? `<${p.name}${p.variadic ? '...' : ''}>` : `[${p.name}${p.variadic ? '...' : ''}]`,
    );
    lines.push(leaf.description, '', `Usage: ${[full, '[OPTIONS]', ...usage].join(' ')}`);
    if (positionals.length) {
      lines.push(
        '',
        'Arguments:',
        columns(positionals.map((p) => [p.name, (p.description ?? '').split(/(?<=\.)\s/)[0] ?? ''] as const)),
      );
    }
    const flags = leafFlags(leaf).filter((f) => !f.hidden);
    if (flags.length) lines.push('', 'Options:', columns(flags.map((f) => [flagLabel(f), flagText(f)] as const)));
    if (leaf.operation) lines.push('', `Runs the core operation ${leaf.operation}.`);
    if (leaf.examples?.length) lines.push('', 'Examples:', ...leaf.examples.map((e) => `  ${e}`));
  } else if (group) {
    const rows: Array<readonly [string, string]> = [];
    for (const [name, entry] of Object.entries(group.children)) {
      const summary = await childSummary(entry);
      if (!summary.hidden) rows.push([name, summary.description]);
    }
    lines.push(group.description);
    if (rows.length) lines.push('', `Usage: ${full} <command> [OPTIONS]`, '', 'Commands:', columns(rows));
    // A bare command with options of its own (`gflow worker --fleet URL`) shows them too.
    const bare = group.bare?.flags ? group.bare : undefined;
    if (bare) {
      const flags = leafFlags(bare).filter((f) => !f.hidden);
      lines.push('', `Usage: ${full} [OPTIONS]`, `  ${bare.description}`, '', 'Options:');
      lines.push(columns(flags.map((f) => [flagLabel(f), flagText(f)] as const)));
    }
    if (path.length === 0) lines.push('', 'Global options:', columns(GLOBAL_ROWS));
    const examples = [...(group.examples ?? []), ...(bare?.examples ?? [])];
    if (examples.length) lines.push('', 'Examples:', ...examples.map((e) => `  ${e}`));
    if (rows.length) lines.push('', `Run '${full} <command> --help' for a command's options.`);
  }
  return `${lines.join('\n')}\n`;
}
