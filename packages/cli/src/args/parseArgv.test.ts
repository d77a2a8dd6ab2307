import { exitCodeOf } from '@gflow/errors';
import { describe, expect, it } from 'vitest';
import { flag } from './flagSpec.js';
import { parseArgv } from './parseArgv.js';
import { parseToolSpec } from './toolSpecArg.js';

const FLAGS = [
  flag({ key: 'count', aliases: ['n'], kind: 'number' }),
  flag({ key: 'reference_images', name: 'ref', kind: 'string', repeatable: true }),
  flag({ key: 'wait', kind: 'boolean' }),
  flag({ key: 'no_spend', name: 'no-spend', kind: 'boolean' }),
  flag({ key: 'aspect', kind: 'enum', options: ['9:16', '16:9'], defaultValue: '9:16' }),
  flag({ key: 'offset', kind: 'number' }),
];
const POS = [{ key: 'prompt', name: 'PROMPT', required: true }];

const exitOf = (fn: () => unknown): number => {
  try {
    fn();
    return 0;
  } catch (error) {
    return exitCodeOf(error);
  }
};

describe('parseArgv', () => {
  it('collects repeatables, numbers, switches, CLI defaults and positionals', () => {
    expect(
      parseArgv(['a fox', '-n', '2', '--ref', 'a.png', '--ref=b.png', '--no-wait', '--offset', '-1'], FLAGS, POS),
    ).toEqual({
      prompt: 'a fox',
      count: 2,
      reference_images: ['a.png', 'b.png'],
      wait: false,
      offset: -1,
      aspect: '9:16',
    });
    expect(parseArgv(['x', '--no-spend', '--aspect', '16:9', '--wait=false'], FLAGS, POS)).toMatchObject({
      no_spend: true,
      aspect: '16:9',
      wait: false,
    });
  });

  it('passes a non-number through for the schema to name, and takes everything after -- as positional', () => {
    expect(parseArgv(['x', '-n', 'abc'], FLAGS, POS)['count']).toBe('abc');
    expect(parseArgv(['--', '--ref'], FLAGS, POS)['prompt']).toBe('--ref');
  });

  it('refuses unknown options, missing values, bad enums, extra and missing positionals with exit 2', () => {
    expect(exitOf(() => parseArgv(['x', '--frob'], FLAGS, POS))).toBe(2);
    expect(exitOf(() => parseArgv(['x', '--ref'], FLAGS, POS))).toBe(2);
    expect(exitOf(() => parseArgv(['x', '--aspect', '1:1'], FLAGS, POS))).toBe(2);
    expect(exitOf(() => parseArgv(['x', 'y'], FLAGS, POS))).toBe(2);
    expect(exitOf(() => parseArgv([], FLAGS, POS))).toBe(2);
    expect(exitOf(() => parseArgv(['x', '--wait=maybe'], FLAGS, POS))).toBe(2);
  });
});

describe('small argument parsers', () => {
  it('parseToolSpec reads NAME[:k=v,…]', () => {
    expect(parseToolSpec('creative-director')).toEqual({ name: 'creative-director' });
    expect(parseToolSpec('x:a=1,b=true,c=text')).toEqual({ name: 'x', options: { a: 1, b: true, c: 'text' } });
    expect(exitOf(() => parseToolSpec(':a=1'))).toBe(2);
    expect(exitOf(() => parseToolSpec('x:novalue'))).toBe(2);
  });
});

describe('prototype keys as options (issue 40)', () => {
  it.each(['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'])(
    '--%s is an unknown option (exit 2), and the parsed values keep a plain prototype',
    (name) => {
      expect(exitOf(() => parseArgv(['a', `--${name}`, 'x'], FLAGS, POS))).toBe(2);
      expect(exitOf(() => parseArgv(['a', `--${name}=x`], FLAGS, POS))).toBe(2);
      expect(Object.getPrototypeOf(parseArgv(['a', '--count', '2'], FLAGS, POS))).toBe(Object.prototype);
    },
  );
});
