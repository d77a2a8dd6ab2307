import { type CST, Composer, type Document, LineCounter, Parser, isAlias, isPair, isScalar, visit } from 'yaml';
import { PROTOTYPE_KEYS } from '../runtime/badParameterFromZod.js';

/**
 * What a user's YAML file (a flow file, a storyboard) may make the parser do (issue 40). A flows folder is shared with whatever
 * writes there, and `gflow serve` reloads it unattended, so each bound turns a hostile file into a
 * problem with a line instead of work without end or a crash:
 * - `maxBytes`: the file is refused before it is read (a 10 MB file costs a stat);
 * - `maxDepth`: measured on the parser's tokens, which the `yaml` package builds with its own stack
 *   (no recursion), before the recursive composer sees them: `[[[[…` thousands deep otherwise
 *   exhausts the call stack, and where that happens inside V8's regexp compiler the process aborts;
 * - `maxAliasCount`: the `yaml` package's own knob against alias bombs (`&a [*b, *b, …]`);
 * - tags: only the YAML 1.2 core schema's (`!!str`, `!!int`, …); `!!binary`, `!!set`, `!foo` are
 *   refused rather than turned into objects a flow never holds;
 * - `__proto__`, `constructor`, `prototype` are refused as keys anywhere.
 */
export const FLOW_YAML_LIMITS = {
  maxBytes: 128 * 1024,
  maxDepth: 64,
  maxAliasCount: 100,
} as const;

/** Bounds and the words for one kind of file. */
export interface YamlFileKind {
  readonly maxBytes: number;
  readonly maxDepth: number;
  readonly maxAliasCount: number;
  /** "a flow file", "a storyboard". */
  readonly what: string;
  /** What to do with a file over maxBytes. */
  readonly largeHint: string;
}

export const FLOW_FILE: YamlFileKind = {
  ...FLOW_YAML_LIMITS,
  what: 'a flow file',
  largeHint: 'put long resource text in a file beside it: content: { resource: FILE }',
};

export interface YamlProblem {
  /** 1-based. */
  readonly line: number;
  readonly reason: string;
}

export type BoundedYaml =
  | { readonly ok: true; readonly doc: Document.Parsed; readonly lineCounter: LineCounter; readonly root: unknown }
  | { readonly ok: false; readonly problems: YamlProblem[] };

/**
 * Parses one YAML document within FLOW_YAML_LIMITS, with line positions, and converts it to plain
 * values. Never throws for anything in `source`: every refusal is a problem with a line.
 */
export function parseBoundedYaml(source: string, kind: YamlFileKind = FLOW_FILE): BoundedYaml {
  const lineCounter = new LineCounter();
  const line = (offset: number): number => lineCounter.linePos(offset).line;
  const bytes = Buffer.byteLength(source, 'utf8');
  if (bytes > kind.maxBytes) return refused(1, tooLarge(bytes, kind));
  const tokens = [...new Parser(lineCounter.addNewLine).parse(source)];
  const deep = firstTooDeep(tokens, kind.maxDepth);
  if (deep !== undefined)
    return refused(line(deep), `YAML: nested deeper than ${kind.maxDepth} levels (the limit for ${kind.what})`);
  const composer = new Composer({ prettyErrors: false, uniqueKeys: true, resolveKnownTags: false });
  const docs = [...composer.compose(tokens, true, source.length)];
  const doc = docs[0];
  if (doc === undefined) return refused(1, 'YAML: the file holds no document');
  if (docs.length > 1) return refused(line(docs[1]?.range[0] ?? 0), `YAML: ${kind.what} holds one document`);
  const syntax = [...doc.errors, ...doc.warnings.filter((w) => w.code === 'TAG_RESOLVE_FAILED')];
  if (syntax.length > 0) {
    return {
      ok: false,
      problems: syntax.map((e) => ({
        line: line(e.pos[0]),
        reason: `YAML: ${tagWording(firstLine(e.message), kind)}`,
      })),
    };
  }
  const keys = prototypeKeys(doc, line);
  if (keys.length > 0) return { ok: false, problems: keys };
  try {
    return { ok: true, doc, lineCounter, root: doc.toJS({ maxAliasCount: kind.maxAliasCount }) };
  } catch (error) {
    // The yaml package throws a ReferenceError for an alias bomb ("Excessive alias count …").
    return refused(firstAliasLine(doc, line), aliasWording(error, kind));
  }
}

function refused(line: number, reason: string): BoundedYaml {
  return { ok: false, problems: [{ line, reason }] };
}

function tooLarge(bytes: number, kind: YamlFileKind): string {
  return `the file is ${formatBytes(bytes)}; ${kind.what} may be at most ${formatBytes(kind.maxBytes)} (${kind.largeHint})`;
}

/** "900 bytes", "128 KiB", "10.0 MB". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Number.isInteger(bytes / 1024) ? bytes / 1024 : (bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

/**
 * The offset of the first collection nested deeper than `max`, walking the CST with an explicit
 * stack (the token tree can be as deep as the file is long).
 */
function firstTooDeep(tokens: readonly CST.Token[], max: number): number | undefined {
  const stack: Array<readonly [CST.Token, number]> = tokens.map((token) => [token, 0] as const);
  while (stack.length > 0) {
    const [token, depth] = stack.pop() as readonly [CST.Token, number];
    if (token.type === 'document') {
      if (token.value) stack.push([token.value, depth]);
      continue;
    }
    if (token.type === 'block-scalar') continue;
    if (!('items' in token)) continue;
    const inner = depth + 1;
    if (inner > max) return token.offset;
    for (const item of token.items) {
      if (item.key) stack.push([item.key, inner]);
      if (item.value) stack.push([item.value, inner]);
    }
  }
  return undefined;
}

function prototypeKeys(doc: Document.Parsed, line: (offset: number) => number): YamlProblem[] {
  const found: YamlProblem[] = [];
  visit(doc, {
    Pair(_key, pair) {
      if (!isPair(pair) || !isScalar(pair.key)) return;
      const key = String(pair.key.value);
      if (!PROTOTYPE_KEYS.includes(key)) return;
      found.push({
        line: line(pair.key.range?.[0] ?? 0),
        reason: `YAML: "${key}" may not be used as a key (it names an object's prototype)`,
      });
      if (found.length >= 10) return visit.BREAK;
      return undefined;
    },
  });
  return found;
}

function firstAliasLine(doc: Document.Parsed, line: (offset: number) => number): number {
  let at = 1;
  visit(doc, {
    Alias(_key, node) {
      if (isAlias(node) && node.range) at = line(node.range[0]);
      return visit.BREAK;
    },
  });
  return at;
}

function aliasWording(error: unknown, kind: YamlFileKind): string {
  const message = error instanceof Error ? error.message : String(error);
  return /alias/i.test(message)
    ? `YAML: aliases expand past the limit of ${kind.maxAliasCount} (an alias bomb?)`
    : `YAML: could not be read (${error instanceof Error ? error.name : 'error'})`;
}

function tagWording(message: string, kind: YamlFileKind): string {
  return message.startsWith('Unresolved tag')
    ? `${message.replace('tag:yaml.org,2002:', '!!')}; ${kind.what} takes plain YAML values (the core schema's !!str, !!int, !!float, !!bool, !!null, !!map, !!seq)`
    : message;
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
