import { describe, expect, it } from 'vitest';
import { JsoncSyntaxError, insertMember, parseJsonc } from './jsonc.js';

const ENTRY = { command: 'gflow', args: ['mcp', 'run'] };

/** Inserts ENTRY as "gflow" into the object at `key` of the root (or the root itself). */
function add(text: string, key?: string): string {
  const root = parseJsonc(text);
  const target = key === undefined ? root : root.members.find((m) => m.key === key)!.value;
  const next = insertMember(text, target, 'gflow', ENTRY);
  // Every result reads back as the old value plus the entry.
  const expected =
    key === undefined
      ? { ...(root.value as object), gflow: ENTRY }
      : {
          ...(root.value as object),
          [key]: { ...(root.value as Record<string, object>)[key], gflow: ENTRY },
        };
  expect(parseJsonc(next).value).toEqual(expected);
  return next;
}

describe('parseJsonc', () => {
  it('reads comments, trailing commas and a BOM, like JSON.parse otherwise', () => {
    const text = '\uFEFF// head\n{ /* a */ "a": [1, 2,], "b": {"c": "x\\"y",}, "d": -1.5e3, "e": null, "f": true, }\n';
    expect(parseJsonc(text).value).toEqual({ a: [1, 2], b: { c: 'x"y' }, d: -1500, e: null, f: true });
    for (const plain of ['{}', '[]', '"s"', '0', '{"k": {"__proto__": 1}}'])
      expect(parseJsonc(plain).value).toEqual(JSON.parse(plain));
  });

  it('keeps the offsets of members', () => {
    const text = '{\n  "servers": { "x": 1 }\n}';
    const servers = parseJsonc(text).members[0]!;
    expect(servers.key).toBe('servers');
    expect(text.slice(servers.value.start, servers.value.end)).toBe('{ "x": 1 }');
  });

  it.each([
    ['{ /* never closed', /unterminated \/\* comment at line 1/],
    ['{ "a": 1 } x', /Unexpected text after the value/],
    ['{ "a" 1 }', /Expected ":"/],
    ['{ a: 1 }', /Expected a key in quotes/],
    ['{ "a": 1 "b": 2 }', /Expected "," or "}"/],
    ['[1,, 2]', /Unexpected ","/],
    ['{\n"a": "\\x"}', /A malformed string at line 2/],
    ['', /Unexpected end of text/],
    ['{ "a": 01 }', /Expected "," or "}"/],
  ])('refuses %j', (text, message) => {
    expect(() => parseJsonc(text)).toThrow(JsoncSyntaxError);
    expect(() => parseJsonc(text)).toThrow(message);
  });
});

describe('insertMember', () => {
  it('appends a member on its own line, indented like its siblings, with a comma after the last value', () => {
    expect(add('{\n  "servers": {\n    "a": 1\n  }\n}\n', 'servers')).toBe(
      '{\n  "servers": {\n    "a": 1,\n    "gflow": {\n      "command": "gflow",\n      "args": [\n        "mcp",\n        "run"\n      ]\n    }\n  }\n}\n',
    );
  });

  it('keeps a trailing-comma style and a comment on the last line', () => {
    const text = '{\n  "servers": {\n    "a": 1, // note\n  },\n}';
    expect(add(text, 'servers')).toContain('    "a": 1, // note\n    "gflow": {');
    expect(add(text, 'servers')).toMatch(/\]\n {4}\},\n {2}\},\n\}$/);
    expect(add('{\n  "a": 1 // note\n}', undefined)).toContain('"a": 1, // note\n  "gflow": {');
    expect(add('{\n  "a": 1 /* x */\n}', undefined)).toContain('"a": 1, /* x */\n  "gflow": {');
    expect(add('{\n  "a": 1 /* x */,\n}', undefined)).toContain('"a": 1 /* x */,\n  "gflow": {');
  });

  it('uses tabs and CRLF when the file does', () => {
    const next = add('{\r\n\t"servers": {\r\n\t\t"a": 1\r\n\t}\r\n}\r\n', 'servers');
    expect(next).toContain('\t\t"a": 1,\r\n\t\t"gflow": {\r\n\t\t\t"command": "gflow",\r\n');
    expect(next.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('fills an empty object, one with only a comment, and writes one-line objects on one line', () => {
    expect(add('{}')).toBe('{"gflow": {"command":"gflow","args":["mcp","run"]}}');
    expect(add('{"servers": {"a": 1,}}', 'servers')).toBe(
      '{"servers": {"a": 1, "gflow": {"command":"gflow","args":["mcp","run"]}}}',
    );
    expect(add('{\n  "servers": {\n    // none yet\n  }\n}', 'servers')).toContain(
      '    // none yet\n    "gflow": {\n      "command": "gflow",',
    );
    expect(add('{\n  "servers": {}\n}', 'servers')).toBe(
      '{\n  "servers": {"gflow": {"command":"gflow","args":["mcp","run"]}}\n}',
    );
  });

  it('leaves a comma inside a comment alone', () => {
    expect(add('{"a": 1 /* x, y */}')).toBe('{"a": 1, "gflow": {"command":"gflow","args":["mcp","run"]} /* x, y */}');
  });
});
