import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { portableSchema } from './portableSchema.js';

/**
 * Wraps an operation's zod schema so the SDK advertises its JSON Schema in
 * tools/list but does not validate arguments itself: validation happens
 * inside the error funnel (core's `gflow.run` parses with the same schema),
 * so a bad argument comes back as gflow's 400 `bad-parameter` envelope rather
 * than the SDK's plain "Input validation error" text.
 */
export function advertisedSchema(
  schema: z.ZodType,
  io: 'input' | 'output' = 'input',
): StandardSchemaWithJSON<unknown, unknown> {
  const perIo = WRAPPERS.get(schema) ?? new Map<string, StandardSchemaWithJSON<unknown, unknown>>();
  WRAPPERS.set(schema, perIo);
  const known = perIo.get(io);
  if (known) return known;
  const json = (options?: { readonly target?: string }): Record<string, unknown> =>
    convert(schema, io, zodTarget(options?.target));
  const wrapper: StandardSchemaWithJSON<unknown, unknown> = {
    '~standard': {
      version: 1,
      vendor: 'gflow',
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: json, output: json },
    },
  };
  perIo.set(io, wrapper);
  return wrapper;
}

// The operations' schemas never change, so each is converted to JSON Schema once per process and
// shared by every server instance and every tools/list. The JSON is deep-frozen instead of copied
// per call (copying was a fifth of a tools/list): the SDK only reads it (it copies the root when it
// adds `type: "object"`) and serialises it, and a mutation would throw rather than alter later lists.
const WRAPPERS = new WeakMap<z.ZodType, Map<string, StandardSchemaWithJSON<unknown, unknown>>>();
const CONVERTED = new WeakMap<z.ZodType, Map<string, Record<string, unknown>>>();

function convert(
  schema: z.ZodType,
  io: 'input' | 'output',
  target: 'draft-2020-12' | 'draft-07' | 'openapi-3.0',
): Record<string, unknown> {
  const key = `${io}:${target}`;
  const perKey = CONVERTED.get(schema) ?? new Map<string, Record<string, unknown>>();
  CONVERTED.set(schema, perKey);
  let json = perKey.get(key);
  if (!json) {
    const raw = z.toJSONSchema(schema, { io, target, unrepresentable: 'any' }) as Record<string, unknown>;
    // OpenAPI 3.0 says nullable its own way (`nullable: true`); the JSON Schema drafts are made portable.
    const converted = target === 'openapi-3.0' ? raw : portableSchema(raw);
    if (io === 'input' && schema instanceof z.ZodObject) advertiseWhatIsEnforced(schema, converted);
    json = deepFreeze(converted);
    perKey.set(key, json);
  }
  return json;
}

/**
 * What core enforces and zod's conversion leaves out of an object's input schema: no argument
 * beyond its properties (core's refuseUnknownArguments), and the default of a field whose schema
 * transforms (a case-insensitive enum converts without its `.default`).
 */
function advertiseWhatIsEnforced(schema: z.ZodObject, json: Record<string, unknown>): void {
  if (json['additionalProperties'] === undefined) json['additionalProperties'] = false;
  const properties = json['properties'] as Record<string, Record<string, unknown>> | undefined;
  for (const [key, field] of Object.entries(schema.shape)) {
    const property = properties?.[key];
    if (property === undefined || 'default' in property || !(field instanceof z.ZodDefault)) continue;
    const value: unknown = field.def.defaultValue;
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) property['default'] = value;
  }
}

/** Freezes a JSON value and everything in it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function zodTarget(target: string | undefined): 'draft-2020-12' | 'draft-07' | 'openapi-3.0' {
  return target === 'draft-07' || target === 'openapi-3.0' ? target : 'draft-2020-12';
}

/** The JSON Schema root type of a schema, or undefined when it cannot be converted. */
export function jsonSchemaRootType(schema: z.ZodType, io: 'input' | 'output'): unknown {
  try {
    return (convert(schema, io, 'draft-2020-12') as { type?: unknown }).type;
  } catch {
    return undefined;
  }
}
