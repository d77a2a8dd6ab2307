// Hostile inputs the security and fuzz suites feed gflow (issue 40), one home for every package's
// tests: flow files that try to make the YAML parser work without end or crash (alias bombs, deep
// nesting, a 10 MB file, prototype keys, tags), and text that tries to drive the terminal (CSI and
// OSC escape sequences in a prompt). Each named case says which line a correct loader names.

/** One hostile flow file: its text, and the 1-based line a correct refusal names. */
export interface HostileYaml {
  readonly name: string;
  readonly text: string;
  readonly line: number;
}

/** `&a0 [x × 10]`, then nine levels of ten aliases each: 10^10 nodes once expanded. */
function aliasBomb(): string {
  const lines = ['- mcp_prompt:', '    name: bomb', '    template: hi', '    a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i < 10; i += 1)
    lines.push(
      `    a${i}: &a${i} [${Array(10)
        .fill(`*a${i - 1}`)
        .join(', ')}]`,
    );
  return `${lines.join('\n')}\n`;
}

/** The named hostile flow files. */
export const HOSTILE_YAML: readonly HostileYaml[] = [
  { name: 'alias bomb', text: aliasBomb(), line: 5 },
  { name: 'deep flow nesting', text: `- ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`, line: 1 },
  { name: 'deep block nesting', text: `${'- '.repeat(5_000)}x\n`, line: 1 },
  {
    name: '10 MB',
    text: `- mcp_prompt:\n    name: big\n    template: "${'x'.repeat(10 * 1024 * 1024)}"\n`,
    line: 1,
  },
  {
    name: '__proto__ key',
    text: '- mcp_prompt:\n    name: p\n    template: hi\n    __proto__: { polluted: true }\n',
    line: 4,
  },
  {
    name: 'constructor key deep inside',
    text: '- mcp_tool:\n    name: t\n    description: d\n    steps:\n      - operation: listModels\n        arguments: { constructor: { prototype: 1 } }\n',
    line: 6,
  },
  { name: 'js tag', text: '- mcp_prompt:\n    name: p\n    template: !!js/function "function () {}"\n', line: 3 },
  { name: 'binary tag', text: '- mcp_prompt:\n    name: p\n    template: !!binary aGVsbG8=\n', line: 3 },
  { name: 'local tag', text: '- !flow\n  mcp_prompt: { name: p, template: hi }\n', line: 1 },
];

/** mulberry32: a tiny deterministic PRNG (the seed is in the test, so a failure replays). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FRAGMENTS = [
  '&a [*a]',
  '*nope',
  '!!set {a, b}',
  '!!omap [a: 1]',
  '!<tag:yaml.org,2002:js/undefined> ""',
  '__proto__: x',
  'prototype: {}',
  '? [a, b]\n: c',
  '"\\u0000\\x1b[31m"',
  '|-\n  text',
  '---\n',
  '...',
  '%YAML 1.1',
  '{',
  ']',
  ': :',
  '\t- tab',
];

/**
 * `count` random flow files made of a valid head and hostile fragments (seeded), each small
 * enough to load quickly; a correct loader refuses or accepts each without throwing or hanging.
 */
export function hostileYamlFuzz(seed: number, count: number): string[] {
  const rand = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const out: string[] = [];
  for (let n = 0; n < count; n += 1) {
    const parts = ['- mcp_prompt:', '    name: fuzz', '    template: hi'];
    const extra = 1 + Math.floor(rand() * 4);
    for (let i = 0; i < extra; i += 1) {
      const indent = ' '.repeat(Math.floor(rand() * 6));
      const depth = Math.floor(rand() * 3) === 0 ? 40 + Math.floor(rand() * 60) : 0;
      parts.push(`${indent}k${i}: ${'['.repeat(depth)}${pick(FRAGMENTS)}${']'.repeat(depth)}`);
    }
    out.push(`${parts.join('\n')}\n`);
  }
  return out;
}

/** A prompt that tries to drive the terminal: red text (CSI SGR), a window title (OSC 0), a bell. */
export const HOSTILE_PROMPT = 'owl \u001b[31mRED\u001b[0m \u001b]0;pwned title\u0007 at dusk';

/** What HOSTILE_PROMPT must print as in a text view: every escape shown, none interpreted. */
export const HOSTILE_PROMPT_SHOWN = 'owl \\x1b[31mRED\\x1b[0m \\x1b]0;pwned title\\x07 at dusk';
