// JSON with comments, as VS Code writes its mcp.json: `//` and `/* */` comments, trailing commas
// and a byte-order mark. gflow reads such a file and adds one member to an object by inserting
// text, so everything the user wrote (comments, order, spacing) stays as it was.

/** The text is not JSONC; `offset` is where reading stopped. */
export class JsoncSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'JsoncSyntaxError';
  }
}

export interface JsoncMember {
  readonly key: string;
  /** Offset of the key's opening quote. */
  readonly keyStart: number;
  readonly value: JsoncNode;
}

export interface JsoncNode {
  readonly kind: 'object' | 'array' | 'string' | 'number' | 'literal';
  /** Offsets of the value's first character and just past its last. */
  readonly start: number;
  readonly end: number;
  readonly value: unknown;
  /** An object's members, in the order written. */
  readonly members: readonly JsoncMember[];
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** The offset of the next character that is not whitespace or a comment; -1 for an unterminated comment. */
function skipTrivia(text: string, from: number): number {
  let pos = from;
  for (;;) {
    const c = text[pos];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') pos++;
    else if (c === '/' && text[pos + 1] === '/') {
      while (pos < text.length && text[pos] !== '\n') pos++;
    } else if (c === '/' && text[pos + 1] === '*') {
      const close = text.indexOf('*/', pos + 2);
      if (close < 0) return -1;
      pos = close + 2;
    } else return pos;
  }
}

/** Parses JSONC (comments, trailing commas, a leading BOM) into a tree that keeps offsets. */
export function parseJsonc(text: string): JsoncNode {
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;

  const fail = (message: string, at = pos): never => {
    throw new JsoncSyntaxError(`${message} at line ${lineOf(text, at)}`, at);
  };

  const skip = (): void => {
    const next = skipTrivia(text, pos);
    if (next < 0) fail('An unterminated /* comment');
    pos = next;
  };

  const parseString = (): JsoncNode => {
    const start = pos;
    pos++;
    for (;;) {
      if (pos >= text.length) fail('An unterminated string', start);
      const c = text[pos];
      if (c === '"') break;
      if (c === '\\') pos++;
      else if (c === '\n') fail('A line break inside a string');
      pos++;
    }
    pos++;
    let value: unknown;
    try {
      value = JSON.parse(text.slice(start, pos));
    } catch {
      fail('A malformed string', start);
    }
    return { kind: 'string', start, end: pos, value, members: [] };
  };

  const parseObject = (): JsoncNode => {
    const start = pos;
    pos++;
    const members: JsoncMember[] = [];
    const value: Record<string, unknown> = {};
    for (;;) {
      skip();
      if (text[pos] === '}') break;
      if (text[pos] !== '"') fail('Expected a key in quotes or "}"');
      const keyStart = pos;
      const key = parseString().value as string;
      skip();
      if (text[pos] !== ':') fail('Expected ":" after a key');
      pos++;
      const member = parseValue();
      members.push({ key, keyStart, value: member });
      Object.defineProperty(value, key, { value: member.value, enumerable: true, writable: true, configurable: true });
      skip();
      if (text[pos] === ',') pos++;
      else if (text[pos] !== '}') fail('Expected "," or "}"');
    }
    pos++;
    return { kind: 'object', start, end: pos, value, members };
  };

  const parseArray = (): JsoncNode => {
    const start = pos;
    pos++;
    const items: unknown[] = [];
    for (;;) {
      skip();
      if (text[pos] === ']') break;
      items.push(parseValue().value);
      skip();
      if (text[pos] === ',') pos++;
      else if (text[pos] !== ']') fail('Expected "," or "]"');
    }
    pos++;
    return { kind: 'array', start, end: pos, value: items, members: [] };
  };

  function parseValue(): JsoncNode {
    skip();
    const c = text[pos];
    if (c === '{') return parseObject();
    if (c === '[') return parseArray();
    if (c === '"') return parseString();
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, pos)) {
        pos += word.length;
        return { kind: 'literal', start: pos - word.length, end: pos, value, members: [] };
      }
    }
    NUMBER.lastIndex = pos;
    const number = NUMBER.exec(text);
    if (number) {
      const start = pos;
      pos += number[0].length;
      return { kind: 'number', start, end: pos, value: Number(number[0]), members: [] };
    }
    return fail(pos >= text.length ? 'Unexpected end of text' : `Unexpected ${JSON.stringify(c)}`);
  }

  const root = parseValue();
  skip();
  if (pos < text.length) fail('Unexpected text after the value');
  return root;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === '\n') line++;
  return line;
}

/** The whitespace that starts the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}

/** True when a line break lies between two offsets. */
function breakBetween(text: string, from: number, to: number): boolean {
  return text.slice(from, to).includes('\n');
}

/** The indent step the file uses (its first member on a line of its own), else two spaces. */
function indentStep(text: string, object: JsoncNode): string {
  const first = object.members[0];
  if (first && breakBetween(text, object.start, first.keyStart)) {
    const outer = lineIndent(text, object.start);
    const inner = lineIndent(text, first.keyStart);
    if (inner.startsWith(outer) && inner.length > outer.length) return inner.slice(outer.length);
  }
  for (const member of object.members) {
    if (member.value.kind === 'object') {
      const step = indentStep(text, member.value);
      if (step !== '  ') return step;
    }
  }
  return '  ';
}

/**
 * Adds `"key": value` as the last member of `object` (a node of `parseJsonc(text)`) by inserting
 * text: the rest of the file, comments included, is kept byte for byte. A multi-line object gets
 * the member on a line of its own, indented like its siblings (a trailing comma style is kept);
 * a one-line object gets it inline, on one line.
 */
export function insertMember(
  text: string,
  object: JsoncNode,
  key: string,
  value: unknown,
  step = indentStep(text, object),
): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const close = object.end - 1;
  const last = object.members.at(-1);
  const outer = lineIndent(text, object.start);
  const multiLine = last ? breakBetween(text, object.start, last.keyStart) : breakBetween(text, object.start, close);
  const inner = last && multiLine ? lineIndent(text, last.keyStart) : outer + step;
  const rendered = (indent: string) =>
    `${JSON.stringify(key)}: ${JSON.stringify(value, null, step).split('\n').join(`${eol}${indent}`)}`;
  const compact = `${JSON.stringify(key)}: ${JSON.stringify(value)}`;

  if (!last && !breakBetween(text, object.start, object.end)) {
    // `{}` on one line: inline.
    return `${text.slice(0, close)}${compact}${text.slice(close)}`;
  }
  if (!last) {
    // An empty object (maybe holding a comment): the member goes before the closing brace.
    let at = close;
    while (at > object.start + 1 && /[ \t\r\n]/.test(text[at - 1] ?? '')) at--;
    const closingOnOwnLine = breakBetween(text, at, close);
    return `${text.slice(0, at)}${eol}${inner}${rendered(inner)}${closingOnOwnLine ? '' : `${eol}${outer}`}${text.slice(at)}`;
  }

  // The last member's comma, if any (comments may stand between).
  const next = skipTrivia(text, last.value.end);
  const comma = text[next] === ',';
  if (!multiLine) {
    // `{"a": 1}` or `{"a": 1,}`: inline, after the last value (and its comma).
    const at = comma ? next + 1 : last.value.end;
    return `${text.slice(0, at)}${comma ? ' ' : ', '}${compact}${text.slice(at)}`;
  }
  // On a line of its own after the last member, past its comma and a comment on the same line.
  let at = comma ? next + 1 : last.value.end;
  let blank = at;
  while (text[blank] === ' ' || text[blank] === '\t') blank++;
  if (text.startsWith('//', blank)) {
    at = blank;
    while (at < text.length && text[at] !== '\n' && text[at] !== '\r') at++;
  } else if (text.startsWith('/*', blank) && !breakBetween(text, blank, text.indexOf('*/', blank))) {
    at = text.indexOf('*/', blank) + 2;
  }
  const member = `${eol}${inner}${rendered(inner)}${comma ? ',' : ''}`;
  if (comma) return `${text.slice(0, at)}${member}${text.slice(at)}`;
  // No comma after the last value: one goes right after it, before a comment on its line.
  const valueEnd = last.value.end;
  return `${text.slice(0, valueEnd)},${text.slice(valueEnd, at)}${member}${text.slice(at)}`;
}
