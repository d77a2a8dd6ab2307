import { type FlagKind, type FlagSpec, type PositionalSpec, kebabOf } from './flagSpec.js';

/**
 * A small, generic "zod object → CLI flags" mapper. It reads the schema's own
 * definition (zod 4 keeps it at `schema._zod.def`) structurally, so this
 * package needs no runtime dependency on zod: strings, numbers, booleans and
 * enums become typed flags, arrays become repeatable flags, anything richer
 * (objects, records, unions) takes a JSON value unless the command supplies a
 * `parse`. The schema itself stays the validation: the parser only collects
 * values and the operation's `safeParse` decides.
 */
interface ZodDefLike {
  readonly type: string;
  readonly innerType?: unknown;
  readonly defaultValue?: unknown;
  readonly in?: unknown;
  readonly out?: unknown;
  readonly element?: unknown;
  readonly entries?: Readonly<Record<string, string | number>>;
  readonly values?: readonly unknown[];
  readonly shape?: Readonly<Record<string, unknown>>;
}

function defOf(schema: unknown): ZodDefLike | undefined {
  const zod = (schema as { _zod?: { def?: ZodDefLike } } | null)?._zod;
  return zod?.def;
}

function descriptionOf(schema: unknown): string | undefined {
  const text = (schema as { description?: unknown } | null)?.description;
  return typeof text === 'string' ? text : undefined;
}

/** What one schema accepts, after unwrapping optional/default/pipe layers. */
export interface SchemaShapeInfo {
  readonly kind: FlagKind;
  readonly repeatable: boolean;
  readonly options?: readonly string[];
  readonly optional: boolean;
  readonly schemaDefault?: unknown;
  readonly description?: string;
}

function enumOptions(def: ZodDefLike | undefined): string[] | undefined {
  if (!def) return undefined;
  if (def.type === 'enum' && def.entries) return Object.values(def.entries).map(String);
  if (def.type === 'literal' && def.values) return def.values.map(String);
  if (def.type === 'pipe') return enumOptions(defOf(def.out)) ?? enumOptions(defOf(def.in));
  if (def.type === 'optional' || def.type === 'default' || def.type === 'nullable' || def.type === 'prefault')
    return enumOptions(defOf(def.innerType));
  return undefined;
}

function scalarKind(def: ZodDefLike | undefined): FlagKind {
  switch (def?.type) {
    case 'string':
      return 'string';
    case 'number':
    case 'int':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'enum':
    case 'literal':
      return 'enum';
    case 'pipe': {
      const inner = scalarKind(defOf(def.in));
      return inner === 'string' && enumOptions(defOf(def.out)) ? 'enum' : inner;
    }
    case 'optional':
    case 'default':
    case 'nullable':
    case 'prefault':
      return scalarKind(defOf(def.innerType));
    default:
      return 'json';
  }
}

/** Describes one property schema of an operation input. */
export function describeSchema(schema: unknown): SchemaShapeInfo {
  let current = schema;
  let optional = false;
  let schemaDefault: unknown;
  let description = descriptionOf(schema);
  for (let depth = 0; depth < 10; depth++) {
    const def = defOf(current);
    if (!def) break;
    if (def.type === 'optional' || def.type === 'nullable') optional = true;
    else if (def.type === 'default' || def.type === 'prefault') {
      optional = true;
      schemaDefault ??= def.defaultValue;
    } else if (def.type === 'pipe' && defOf(def.in)?.type !== 'pipe' && scalarKind(defOf(def.in)) !== 'string') {
      // number.default().transform(): the accepted input is the pipe's `in`.
      current = def.in;
      description ??= descriptionOf(current);
      continue;
    } else break;
    current = def.innerType;
    description ??= descriptionOf(current);
  }
  const def = defOf(current);
  if (def?.type === 'array') {
    const element = defOf(def.element);
    const kind = scalarKind(element);
    const options = enumOptions(element);
    return {
      kind,
      repeatable: true,
      optional,
      ...(options ? { options } : {}),
      ...(schemaDefault === undefined ? {} : { schemaDefault }),
      ...(description ? { description } : {}),
    };
  }
  const kind = scalarKind(def);
  const options = kind === 'enum' ? enumOptions(def) : undefined;
  return {
    kind,
    repeatable: false,
    optional,
    ...(options ? { options } : {}),
    ...(schemaDefault === undefined ? {} : { schemaDefault }),
    ...(description ? { description } : {}),
  };
}

/** How a command adjusts one derived flag (its CLI spelling, a CLI default, a parser). */
export interface FlagOverride {
  readonly name?: string;
  readonly aliases?: readonly string[];
  readonly description?: string;
  readonly defaultValue?: string | number | boolean;
  readonly valueHint?: string;
  readonly parse?: (raw: string) => unknown;
  readonly kind?: FlagKind;
  readonly hidden?: boolean;
  readonly required?: boolean;
  /** Not a flag at all (a positional, or a key the command fills itself). */
  readonly omit?: boolean;
}

export interface ZodFlagsOptions {
  readonly overrides?: Readonly<Record<string, FlagOverride>>;
  /** Keys taken as positionals instead of flags. */
  readonly positionals?: readonly string[];
}

/** The properties of a zod object schema, or an empty record. */
export function shapeOf(schema: unknown): Readonly<Record<string, unknown>> {
  const shape = (schema as { shape?: unknown } | null)?.shape;
  if (shape && typeof shape === 'object') return shape as Record<string, unknown>;
  return defOf(schema)?.shape ?? {};
}

/** Flags for every property of an operation's input schema. */
export function zodFlags(schema: unknown, options: ZodFlagsOptions = {}): FlagSpec[] {
  const flags: FlagSpec[] = [];
  const positionals = new Set(options.positionals ?? []);
  for (const [key, property] of Object.entries(shapeOf(schema))) {
    const override = options.overrides?.[key] ?? {};
    if (override.omit || positionals.has(key)) continue;
    const info = describeSchema(property);
    const shown = info.schemaDefault;
    flags.push({
      key,
      name: override.name ?? kebabOf(key),
      kind: override.kind ?? info.kind,
      ...(info.repeatable ? { repeatable: true } : {}),
      ...(info.options ? { options: info.options } : {}),
      ...(override.aliases ? { aliases: override.aliases } : {}),
      ...((override.description ?? info.description) ? { description: override.description ?? info.description } : {}),
      ...(override.defaultValue !== undefined ? { defaultValue: override.defaultValue } : {}),
      ...(override.defaultValue === undefined &&
      (typeof shown === 'string' || typeof shown === 'number' || typeof shown === 'boolean')
        ? { shownDefault: shown }
        : {}),
      ...((override.required ?? !info.optional) ? { required: true } : {}),
      ...(override.valueHint ? { valueHint: override.valueHint } : {}),
      ...(override.parse ? { parse: override.parse } : {}),
      ...(override.hidden ? { hidden: true } : {}),
    });
  }
  return flags;
}

/** Positionals for the named keys of an operation's input schema. */
export function zodPositionals(schema: unknown, keys: readonly string[], variadicLast = false): PositionalSpec[] {
  const shape = shapeOf(schema);
  return keys.map((key, index) => {
    const info = describeSchema(shape[key]);
    return {
      key,
      name: key.toUpperCase(),
      ...(info.description ? { description: info.description } : {}),
      ...(info.optional ? {} : { required: true }),
      ...(info.kind === 'number' ? { kind: 'number' as const } : {}),
      ...(variadicLast && index === keys.length - 1 ? { variadic: true } : {}),
    };
  });
}
