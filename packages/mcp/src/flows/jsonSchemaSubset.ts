import { PROTOTYPE_KEYS } from '@gflow/core/surfaces';
/**
 * The JSON Schema subset a flow tool's input_schema may use, checked when the
 * flow loads and enforced on every call (so a bad argument comes back as
 * gflow's 400 envelope, like the built-in tools). Supported: type (one or a
 * list), properties, required, additionalProperties (boolean), enum, const,
 * items, minItems/maxItems, minimum/maximum, minLength/maxLength, pattern,
 * default; title, description and examples are annotations.
 */
export type JsonSchema = Readonly<Record<string, unknown>>;

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);
const KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'enum',
  'const',
  'items',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'default',
  'title',
  'description',
  'examples',
  '$schema',
]);

export interface SchemaIssue {
  readonly path: ReadonlyArray<string | number>;
  readonly reason: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Problems with the schema itself (unsupported keyword, bad type name, …). */
export function checkSchema(schema: unknown, at: ReadonlyArray<string | number> = []): SchemaIssue[] {
  if (!isRecord(schema)) return [{ path: at, reason: 'a schema must be a mapping' }];
  const issues: SchemaIssue[] = [];
  for (const key of Object.keys(schema)) {
    if (!KEYWORDS.has(key))
      issues.push({
        path: [...at, key],
        reason: `unsupported JSON Schema keyword "${key}" (supported: ${[...KEYWORDS].join(', ')})`,
      });
  }
  const types = schema['type'] === undefined ? [] : Array.isArray(schema['type']) ? schema['type'] : [schema['type']];
  for (const type of types)
    if (typeof type !== 'string' || !TYPES.has(type))
      issues.push({ path: [...at, 'type'], reason: `unknown type ${JSON.stringify(type)}` });
  for (const key of ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems']) {
    if (schema[key] !== undefined && typeof schema[key] !== 'number')
      issues.push({ path: [...at, key], reason: `${key} must be a number` });
  }
  if (schema['pattern'] !== undefined) {
    try {
      new RegExp(String(schema['pattern']), 'u');
    } catch (error) {
      issues.push({ path: [...at, 'pattern'], reason: `invalid pattern: ${(error as Error).message}` });
    }
  }
  if (schema['enum'] !== undefined && !Array.isArray(schema['enum']))
    issues.push({ path: [...at, 'enum'], reason: 'enum must be a list' });
  if (schema['additionalProperties'] !== undefined && typeof schema['additionalProperties'] !== 'boolean') {
    issues.push({ path: [...at, 'additionalProperties'], reason: 'additionalProperties must be true or false here' });
  }
  const required = schema['required'];
  if (required !== undefined && !(Array.isArray(required) && required.every((r) => typeof r === 'string')))
    issues.push({ path: [...at, 'required'], reason: 'required must be a list of names' });
  const properties = schema['properties'];
  if (properties !== undefined) {
    if (!isRecord(properties)) issues.push({ path: [...at, 'properties'], reason: 'properties must be a mapping' });
    else
      for (const [name, sub] of Object.entries(properties))
        issues.push(...checkSchema(sub, [...at, 'properties', name]));
  }
  if (schema['items'] !== undefined) issues.push(...checkSchema(schema['items'], [...at, 'items']));
  if (issues.length === 0 && schema['default'] !== undefined) {
    const bad = validateJson(schema, schema['default'], 'default');
    if (bad) issues.push({ path: [...at, 'default'], reason: `default does not match the schema: ${bad}` });
  }
  return issues;
}

/** The property names a root object schema declares. */
export function declaredProperties(schema: JsonSchema | undefined): Set<string> {
  const properties = schema?.['properties'];
  return new Set(isRecord(properties) ? Object.keys(properties) : []);
}

/** A copy of the value with the declared defaults of missing object properties filled in. */
export function applyDefaults(schema: JsonSchema, value: unknown): unknown {
  if (value === undefined && schema['default'] !== undefined) return structuredClone(schema['default']);
  const properties = schema['properties'];
  if (!isRecord(value) || !isRecord(properties)) return value;
  const out: Record<string, unknown> = { ...value };
  for (const [name, sub] of Object.entries(properties)) {
    if (isRecord(sub)) {
      const filled = applyDefaults(sub, out[name]);
      if (filled !== undefined) out[name] = filled;
    }
  }
  return out;
}

/** The first way a value violates the schema (`where: reason`), or undefined when it conforms. */
export function validateJson(schema: JsonSchema, value: unknown, where = 'input'): string | undefined {
  const types =
    schema['type'] === undefined
      ? undefined
      : Array.isArray(schema['type'])
        ? (schema['type'] as string[])
        : [schema['type'] as string];
  if (types && !types.some((type) => hasType(value, type)))
    return `${where}: expected ${types.join(' or ')}, got ${typeName(value)}`;
  if (Array.isArray(schema['enum']) && !schema['enum'].some((option) => sameJson(option, value))) {
    return `${where}: must be one of ${schema['enum'].map((option) => JSON.stringify(option)).join(', ')}`;
  }
  if (schema['const'] !== undefined && !sameJson(schema['const'], value))
    return `${where}: must be ${JSON.stringify(schema['const'])}`;
  if (typeof value === 'number') {
    if (typeof schema['minimum'] === 'number' && value < schema['minimum'])
      return `${where}: must be >= ${schema['minimum']}`;
    if (typeof schema['maximum'] === 'number' && value > schema['maximum'])
      return `${where}: must be <= ${schema['maximum']}`;
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (typeof schema['minLength'] === 'number' && length < schema['minLength'])
      return `${where}: must be at least ${schema['minLength']} characters`;
    if (typeof schema['maxLength'] === 'number' && length > schema['maxLength'])
      return `${where}: must be at most ${schema['maxLength']} characters`;
    if (typeof schema['pattern'] === 'string' && !new RegExp(schema['pattern'], 'u').test(value))
      return `${where}: must match ${schema['pattern']}`;
  }
  if (Array.isArray(value)) {
    if (typeof schema['minItems'] === 'number' && value.length < schema['minItems'])
      return `${where}: needs at least ${schema['minItems']} items`;
    if (typeof schema['maxItems'] === 'number' && value.length > schema['maxItems'])
      return `${where}: takes at most ${schema['maxItems']} items`;
    const items = schema['items'];
    if (isRecord(items)) {
      for (const [index, item] of value.entries()) {
        const bad = validateJson(items, item, `${where}.${index}`);
        if (bad) return bad;
      }
    }
  }
  if (isRecord(value)) return validateObject(schema, value, where);
  return undefined;
}

function validateObject(schema: JsonSchema, value: Record<string, unknown>, where: string): string | undefined {
  const properties = isRecord(schema['properties']) ? schema['properties'] : {};
  const prefix = where === 'input' ? '' : `${where}.`;
  for (const name of Array.isArray(schema['required']) ? (schema['required'] as string[]) : []) {
    if (value[name] === undefined) return `${prefix}${name}: required`;
  }
  for (const [name, item] of Object.entries(value)) {
    // A prototype key is never a parameter (issue 40), whatever additionalProperties says.
    if (PROTOTYPE_KEYS.includes(name)) return `${prefix}${name}: unknown parameter`;
    const sub = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (isRecord(sub)) {
      const bad = validateJson(sub, item, `${prefix}${name}`);
      if (bad) return bad;
    } else if (schema['additionalProperties'] === false) {
      return `${prefix}${name}: unknown parameter`;
    }
  }
  return undefined;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isRecord(value);
    case 'null':
      return value === null;
    default:
      return typeof value === type;
  }
}

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
