/**
 * The CLI's description of one flag or positional argument. Flags of commands
 * bound to a core operation are derived from the operation's zod schema
 * (zodFlags.ts); CLI-only commands declare them by hand with the same shape.
 */
export type FlagKind = 'string' | 'number' | 'boolean' | 'enum' | 'json';

export interface FlagSpec {
  /** The key the value is stored under (the operation input key, snake_case). */
  readonly key: string;
  /** The long flag name without dashes (kebab-case). */
  readonly name: string;
  /** Extra names: single letters become `-x`, longer ones `--xyz`. */
  readonly aliases?: readonly string[];
  readonly kind: FlagKind;
  /** May be given several times; the value is an array. */
  readonly repeatable?: boolean;
  /** Accepted values (enums), matched case-insensitively by the parser; the schema decides exactly. */
  readonly options?: readonly string[];
  readonly description?: string;
  /** A default the CLI applies itself (where the CLI differs from the schema, e.g. image aspect 9:16). */
  readonly defaultValue?: string | number | boolean;
  /** A default shown in help only (the schema applies it). */
  readonly shownDefault?: string | number | boolean;
  readonly required?: boolean;
  readonly valueHint?: string;
  /** Turns one raw value into the input value (e.g. `-t NAME:k=v` into a tool spec). */
  readonly parse?: (raw: string) => unknown;
  /** Left out of help (still accepted). */
  readonly hidden?: boolean;
}

export interface PositionalSpec {
  readonly key: string;
  /** Shown upper-case in help. */
  readonly name: string;
  readonly description?: string;
  readonly required?: boolean;
  /** Takes every remaining argument (last positional only). */
  readonly variadic?: boolean;
  readonly kind?: 'string' | 'number';
}

/** `reference_images` → `reference-images`. */
export function kebabOf(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase();
}

export function flag(spec: Omit<FlagSpec, 'name'> & { readonly name?: string }): FlagSpec {
  return { ...spec, name: spec.name ?? kebabOf(spec.key) };
}

/** The flags every leaf may share. */
export const JSON_FLAG: FlagSpec = flag({
  key: 'json',
  kind: 'boolean',
  description: 'Write exactly one JSON document to stdout (logs go to stderr).',
});
export const PROGRESS_FLAG: FlagSpec = flag({
  key: 'progress',
  kind: 'enum',
  options: ['auto', 'jsonl', 'off'],
  valueHint: 'auto|jsonl|off',
  description:
    'Progress on stderr: auto (a status line on a terminal, none otherwise), jsonl (one JSON line per event, for scripts) or off. Default GFLOW_CLI_PROGRESS, else auto.',
});
export const PROFILE_FLAG: FlagSpec = flag({
  key: 'profile',
  kind: 'string',
  valueHint: 'NAME',
  description:
    'Profile name (a plain name; `default` means the default profile). Default: GFLOW_CLI_PROFILE, then config.toml, then the only profile.',
});
export const SANDBOX_FLAG: FlagSpec = flag({
  key: 'sandbox',
  kind: 'boolean',
  description: 'Run against the built-in Flow simulator in a sandbox home; nothing is sent to Google.',
});
export const FLEET_FLAG: FlagSpec = flag({
  key: 'fleet',
  kind: 'string',
  valueHint: 'POSTGRES_URL',
  description:
    "Run as part of a fleet (GFLOW_FLEET_URL): submit to its PostgreSQL queue, which any worker holding the profile (or one of --profile-pool) runs; `gflow worker --fleet URL` serves this machine's profiles (docs/FLEET.md).",
});
export const NO_SPEND_FLAG: FlagSpec = flag({
  key: 'no_spend',
  name: 'no-spend',
  kind: 'boolean',
  description: 'Never register or run credit-spending operations (GFLOW_MCP_NO_SPEND=1).',
});
