// Tool schemas every host can map. Legal JSON Schema that some hosts cannot: those that turn a tool
// into a single-type dialect (Gemini's function declarations, OpenAPI 3.0 subsets) drop or reject a
// `type` array (`["string", "null"]`, what zod writes for a nullable primitive) and a schema with no
// type at all (`{}`, what zod writes for unknown values and for the extra keys of a loose object).
// So a nullable is an `anyOf` of its type and `null`, any JSON value is an `anyOf` of every type
// (an array's items any value but another array), and a loose object's extra keys are
// `additionalProperties: true`.

type Json = Record<string, unknown>;

const SCALARS_AND_OBJECT = ['object', 'string', 'number', 'boolean', 'null'].map((type) => ({ type }));
/** Any JSON value, typed: an array's items are any value but another array (a single-type host needs `items`). */
const ANY_VALUE = [...SCALARS_AND_OBJECT, { type: 'array', items: { anyOf: SCALARS_AND_OBJECT } }];
/** Keywords about a schema as a whole, kept beside an `anyOf`; every other keyword belongs to a branch. */
const ANNOTATIONS = new Set([
  'description',
  'title',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$schema',
  '$id',
  '$comment',
]);
/** Keywords that hold one subschema, and those that hold a list or a map of them. */
const ONE = [
  'items',
  'additionalProperties',
  'not',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'if',
  'then',
  'else',
];
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The one JSON type of a `const` or an `enum`'s values, when they share one. */
function typeOfValues(node: Json): string | undefined {
  const values = 'const' in node ? [node['const']] : Array.isArray(node['enum']) ? (node['enum'] as unknown[]) : [];
  const types = new Set(values.map((v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)));
  const [only] = types;
  return types.size === 1 && only !== undefined && only !== 'undefined'
    ? only === 'bigint'
      ? 'number'
      : only
    : undefined;
}

function split(node: Json): { annotations: Json; rest: Json } {
  const annotations: Json = {};
  const rest: Json = {};
  for (const [key, value] of Object.entries(node)) (ANNOTATIONS.has(key) ? annotations : rest)[key] = value;
  return { annotations, rest };
}

/** One node made portable (its children first). */
function portableNode(node: Json, slot: string | undefined): Json | boolean {
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (ONE.includes(key) && isJson(value)) out[key] = portableNode(value, key);
    else if (LIST.includes(key) && Array.isArray(value))
      out[key] = value.map((branch: unknown) => (isJson(branch) ? portableNode(branch, undefined) : branch));
    else if (MAP.includes(key) && isJson(value))
      out[key] = Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, isJson(v) ? portableNode(v, undefined) : v]),
      );
    else out[key] = value;
  }
  const type = out['type'];
  if (Array.isArray(type)) {
    const { annotations, rest } = split(out);
    const branches = (type as string[]).map((t) => (t === 'null' ? { type: 'null' } : { ...rest, type: t }));
    return { ...annotations, anyOf: branches };
  }
  if ('type' in out || 'anyOf' in out) return out;
  const { annotations, rest } = split(out);
  const ofValues = typeOfValues(out);
  if (ofValues) return { ...out, type: ofValues };
  if (Object.keys(rest).length > 0) return out;
  // Nothing said: any value. A loose object's extra keys say so with `true`.
  if (slot === 'additionalProperties' && Object.keys(out).length === 0) return true;
  return { ...annotations, anyOf: ANY_VALUE.map((branch) => ({ ...branch })) };
}

/** A tool's JSON Schema with every nullable as an `anyOf` and every node typed (see the header). */
export function portableSchema(schema: Json): Json {
  const out = portableNode(schema, undefined);
  return isJson(out) ? out : {};
}

/**
 * What a single-type host would trip on in a tool's schema, one line per node (an empty list when
 * nothing): a `type` array, a schema with neither `type` nor `anyOf`, an array without `items`.
 */
export function portabilityWarnings(schema: unknown, where = '$'): string[] {
  if (!isJson(schema)) return [];
  const warnings: string[] = [];
  if (Array.isArray(schema['type'])) warnings.push(`${where}: a type array ${JSON.stringify(schema['type'])}`);
  if (!('type' in schema) && !('anyOf' in schema)) warnings.push(`${where}: no type and no anyOf`);
  if (schema['type'] === 'array' && !('items' in schema) && !('prefixItems' in schema))
    warnings.push(`${where}: an array without items`);
  for (const key of ONE) warnings.push(...portabilityWarnings(schema[key], `${where}.${key}`));
  for (const key of LIST) {
    const list = schema[key];
    if (Array.isArray(list))
      list.forEach((branch: unknown, i) => warnings.push(...portabilityWarnings(branch, `${where}.${key}[${i}]`)));
  }
  for (const key of MAP) {
    const map = schema[key];
    if (isJson(map))
      for (const [k, v] of Object.entries(map)) warnings.push(...portabilityWarnings(v, `${where}.${key}.${k}`));
  }
  return warnings;
}
