// A value for a zod schema, made up the way gflow's own results look: the fake runtime's answer to
// any operation (`@gflow/core/testing`). It walks the zod 4 definitions gflow's output schemas use
// (objects, enums, literals, strings with their length and pattern checks, numbers with their
// bounds, arrays, records, unions, optional and nullable members) and names values by their keys
// (`task_id`, `flow_media_id`, `created_at`, `files`, …), so a test sees ids and files, not "string".
// Hand-written on purpose: a faker library would weigh on every install of @gflow/core; the unit
// test holds every operation's answer to its own schema.
import type { z } from 'zod';

/** The parts of a zod 4 definition this walker reads. */
interface Def {
  readonly type: string;
  readonly shape?: Readonly<Record<string, z.ZodType>>;
  readonly innerType?: z.ZodType;
  readonly element?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly entries?: Readonly<Record<string, string | number>>;
  readonly values?: readonly unknown[];
  readonly out?: z.ZodType;
  readonly checks?: ReadonlyArray<{ readonly _zod: { readonly def: CheckDef } }>;
}
interface CheckDef {
  readonly check: string;
  readonly format?: string;
  readonly pattern?: RegExp;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly value?: number;
  readonly inclusive?: boolean;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** What the values are made from: the call's input, a counter for ids, where files go. */
export interface FakeContext {
  readonly input: Readonly<Record<string, unknown>>;
  /** A fresh number for each id made (ids stay unique within a runtime). */
  readonly next: () => number;
  /** The files a generation "wrote" (paths), given how many and whether they are videos. */
  readonly files: (count: number) => string[];
  /** A fixed clock, so results are stable within a test. */
  readonly now: string;
}

/** Optional members a realistic result carries (the rest are left out). */
const WANTED_OPTIONAL =
  /^(task_id|flow_project_id|flow_media_id|flow_media_ids|files|media|seed|params|project_id|media_id)$/;

/** A string for a key, by what gflow puts there. */
function stringFor(key: string, ctx: FakeContext): string {
  const inputValue = ctx.input[key];
  if (typeof inputValue === 'string' && inputValue) return inputValue;
  if (/task_id$/.test(key)) return `fake-task-${ctx.next()}`;
  if (/workflow_id$/.test(key)) return `fake-workflow-${ctx.next()}`;
  if (/project_id$|^project$/.test(key)) return `fake-project-${ctx.next()}`;
  if (/media_id$|entity_id$|^id$/.test(key)) return `fake-media-${ctx.next()}`;
  if (/_at$|^at$|time|date|day$/.test(key)) return ctx.now;
  if (/url$/.test(key)) return `https://flow.google.com/project/fake-project-${ctx.next()}`;
  if (/profile/.test(key)) return 'default';
  if (/account|email/.test(key)) return 'fake.user@gflow.invalid';
  if (/path$|file$|^output/.test(key)) return ctx.files(1)[0] ?? 'fake';
  return `fake ${key.replace(/_/g, ' ') || 'value'}`.trim();
}

function fitString(value: string, checks: readonly CheckDef[], key: string, ctx: FakeContext): string {
  const pattern = checks.find((c) => c.pattern)?.pattern;
  if (pattern) {
    const candidates = [value, ctx.now, `https://flow.google.com/project/fake-project-${ctx.next()}`, 'fake', 'a'];
    const fit = candidates.find((c) => pattern.test(c));
    if (fit === undefined) throw new Error(`fake value: no candidate matches ${String(pattern)} at ${key}`);
    return fit;
  }
  const min = Math.max(0, ...checks.filter((c) => c.check === 'min_length').map((c) => c.minimum ?? 0));
  const max = Math.min(Infinity, ...checks.filter((c) => c.check === 'max_length').map((c) => c.maximum ?? Infinity));
  return value.padEnd(min, 'x').slice(0, max);
}

function numberFor(key: string, checks: readonly CheckDef[], ctx: FakeContext): number {
  const given = ctx.input[key];
  let value = typeof given === 'number' ? given : /seed/.test(key) ? 424242 : /count|total|matched/.test(key) ? 1 : 1;
  for (const c of checks) {
    if (c.check === 'greater_than' && c.value !== undefined)
      value = Math.max(value, c.inclusive ? c.value : c.value + 1);
    if (c.check === 'less_than' && c.value !== undefined) value = Math.min(value, c.inclusive ? c.value : c.value - 1);
  }
  return value;
}

/** How long an array is: as long as the input's array of the same name (a batch's items), else one. */
function lengthFor(key: string, ctx: FakeContext): number {
  const mirror = ctx.input[key];
  if (Array.isArray(mirror)) return mirror.length;
  if (key === 'files' || key === 'media' || key === 'flow_media_ids')
    return typeof ctx.input['count'] === 'number' ? ctx.input['count'] : 1;
  return 1;
}

function objectFor(def: Def, ctx: FakeContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(def.shape ?? {})) {
    const optional = defOf(member).type === 'optional';
    if (optional && !WANTED_OPTIONAL.test(key)) continue;
    const value = fakeValue(optional ? defOf(member).innerType! : member, ctx, key);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** A value for `schema`, named by `key` (the member it fills). */
export function fakeValue(schema: z.ZodType, ctx: FakeContext, key = ''): unknown {
  const def = defOf(schema);
  const checks = (def.checks ?? []).map((c) => c._zod.def);
  switch (def.type) {
    case 'object':
      return objectFor(def, ctx);
    case 'optional':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return fakeValue(def.innerType!, ctx, key);
    case 'nullable':
      return /id$|^files$/.test(key) || ctx.input[key] !== undefined ? fakeValue(def.innerType!, ctx, key) : null;
    case 'enum': {
      const values = Object.values(def.entries ?? {});
      return ['completed', 'ok', 'succeeded'].find((v) => values.includes(v)) ?? values[0];
    }
    case 'literal':
      return def.values?.[0];
    case 'string':
      return fitString(stringFor(key, ctx), checks, key, ctx);
    case 'number':
      return numberFor(key, checks, ctx);
    case 'boolean':
      return false;
    case 'array': {
      const n = lengthFor(key, ctx);
      if (key === 'files' && defOf(def.element!).type === 'string') return ctx.files(n);
      return Array.from({ length: n }, () => fakeValue(def.element!, ctx, key.replace(/s$/, '')));
    }
    case 'record':
      return key === 'params' ? { ...ctx.input } : {};
    case 'union':
      return fakeValue(def.options![0]!, ctx, key);
    case 'pipe':
      return fakeValue(def.out!, ctx, key);
    case 'unknown':
    case 'any':
      return null;
    case 'custom':
      return { status: 'ok' };
    default:
      throw new Error(`fake value: zod type "${def.type}" at ${key || 'the top'} is not supported`);
  }
}

/**
 * A generation's made-up envelope told one story: its `media` are its `files`, in order, the first
 * with its `flow_media_id`. Any other value is returned as it is.
 */
export function withMediaOfFiles(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const envelope = value as { files?: unknown; media?: unknown; flow_media_id?: unknown };
  if (!Array.isArray(envelope.files) || !Array.isArray(envelope.media)) return value;
  const media = envelope.media as Array<Record<string, unknown>>;
  return {
    ...envelope,
    media: (envelope.files as unknown[]).map((file, i) => ({
      ...(media[i] ?? media[0]),
      file,
      ...(i === 0 && typeof envelope.flow_media_id === 'string' ? { media_id: envelope.flow_media_id } : {}),
    })),
  };
}
