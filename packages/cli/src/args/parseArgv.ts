import { UsageError } from '@gflow/errors';
import type { FlagSpec, PositionalSpec } from './flagSpec.js';

export type ParsedValues = Record<string, unknown>;

const NUMBER = /^-?\d+(\.\d+)?$/;

function convert(flag: FlagSpec, raw: string): unknown {
  if (flag.parse) return flag.parse(raw);
  switch (flag.kind) {
    case 'number':
      // A non-number is passed on as text: the schema names the problem.
      return NUMBER.test(raw.trim()) ? Number(raw) : raw;
    case 'json':
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        throw new UsageError(`--${flag.name} takes a JSON value; got ${JSON.stringify(raw)}.`, {
          extensions: { parameter: flag.name },
        });
      }
    case 'enum':
      if (flag.options && !flag.options.some((o) => o.toLowerCase() === raw.trim().toLowerCase())) {
        throw new UsageError(`--${flag.name} must be one of ${flag.options.join(', ')}; got ${JSON.stringify(raw)}.`, {
          extensions: { parameter: flag.name },
        });
      }
      return raw;
    case 'boolean':
    case 'string':
      return raw;
  }
}

function parseBoolean(flag: FlagSpec, raw: string): boolean {
  const word = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(word)) return true;
  if (['0', 'false', 'no', 'off'].includes(word)) return false;
  throw new UsageError(`--${flag.name} is a switch (true or false); got ${JSON.stringify(raw)}.`, {
    extensions: { parameter: flag.name },
  });
}

/**
 * A strict argv parser over flag specs: unknown options are refused (exit 2),
 * repeatable flags collect arrays, `--no-x` turns a switch off, `--` ends the
 * options, and positionals are filled in order (the last may be variadic).
 * CLI defaults (`defaultValue`) are applied; schema defaults are left to the
 * schema.
 */
export function parseArgv(
  argv: readonly string[],
  flags: readonly FlagSpec[],
  positionals: readonly PositionalSpec[] = [],
): ParsedValues {
  const byName = new Map<string, FlagSpec>();
  for (const f of flags) {
    byName.set(f.name, f);
    for (const alias of f.aliases ?? []) byName.set(alias, f);
  }
  const values: ParsedValues = {};
  const rest: string[] = [];
  const set = (f: FlagSpec, value: unknown): void => {
    if (f.repeatable) {
      const list = (values[f.key] as unknown[] | undefined) ?? [];
      list.push(value);
      values[f.key] = list;
    } else values[f.key] = value;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      rest.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-' || NUMBER.test(arg)) {
      rest.push(arg);
      continue;
    }
    const long = arg.startsWith('--');
    const body = arg.slice(long ? 2 : 1);
    const eq = body.indexOf('=');
    const name = eq >= 0 ? body.slice(0, eq) : body;
    const inline = eq >= 0 ? body.slice(eq + 1) : undefined;
    let f = (long || name.length === 1) && byName.get(name);
    let negated = false;
    if (!f && long && name.startsWith('no-')) {
      const positive = byName.get(name.slice(3));
      if (positive?.kind === 'boolean') {
        f = positive;
        negated = true;
      }
    }
    if (!f) throw new UsageError(`Unknown option ${long ? '--' : '-'}${name}.`, { extensions: { parameter: name } });
    if (f.kind === 'boolean') {
      if (negated && inline !== undefined) throw new UsageError(`--no-${f.name} takes no value.`);
      set(f, negated ? false : inline === undefined ? true : parseBoolean(f, inline));
      continue;
    }
    let raw = inline;
    if (raw === undefined) {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('-') && next !== '-' && !NUMBER.test(next))) {
        throw new UsageError(`--${f.name} needs a value${f.valueHint ? ` (${f.valueHint})` : ''}.`, {
          extensions: { parameter: f.name },
        });
      }
      raw = next;
      i++;
    }
    set(f, convert(f, raw));
  }
  positionals.forEach((p, index) => {
    if (p.variadic) {
      const taken = rest.splice(0);
      if (taken.length) values[p.key] = taken;
    } else if (rest.length) {
      const raw = rest.shift() as string;
      values[p.key] = p.kind === 'number' && NUMBER.test(raw) ? Number(raw) : raw;
    }
    if (p.required && values[p.key] === undefined) {
      throw new UsageError(`Missing argument ${p.name}.`, { extensions: { parameter: p.name, position: index + 1 } });
    }
  });
  if (rest.length) {
    // An unquoted prompt: the shell split it into words, and the second one is "unexpected".
    const prompt = positionals.some((p) => p.key === 'prompt') ? values['prompt'] : undefined;
    throw new UsageError(`Unexpected argument ${JSON.stringify(rest[0])}.`, {
      ...(typeof prompt === 'string'
        ? {
            remediationHint: `Quote a prompt of several words: ${JSON.stringify([prompt, ...rest].join(' ').slice(0, 200))}.`,
          }
        : {}),
    });
  }
  for (const f of flags) {
    if (values[f.key] === undefined && f.defaultValue !== undefined) values[f.key] = f.defaultValue;
    if (f.required && f.defaultValue === undefined && values[f.key] === undefined) {
      throw new UsageError(`Missing option --${f.name}.`, { extensions: { parameter: f.name } });
    }
  }
  return values;
}
