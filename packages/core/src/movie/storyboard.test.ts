// A storyboard as a user writes it: the template parses; every problem names its line (YAML) or
// its scene and field (the schema), exit 2; hostile YAML is refused within bounds.
import { exitCodeOf } from '@gflow/errors';
import { describe, expect, it } from 'vitest';
import { MAX_MOVIE_SCENES, parseStoryboard } from './storyboard.js';
import { parseStoryboardText } from './storyboardFile.js';
import { STORYBOARD_TEMPLATE } from './storyboardTemplate.js';

async function refusal(text: string): Promise<{ exit: number; detail: string; parameter: unknown }> {
  try {
    await parseStoryboardText(text);
  } catch (error) {
    const e = error as { detail: string; extensions: Record<string, unknown> };
    return { exit: exitCodeOf(error), detail: e.detail, parameter: e.extensions['parameter'] };
  }
  throw new Error('the storyboard was accepted');
}

describe('a storyboard', () => {
  it('reads the template: its title, defaults and the two scenes not commented out', async () => {
    const board = await parseStoryboardText(STORYBOARD_TEMPLATE);
    expect(board).toMatchObject({ title: 'The lighthouse keeper', aspect: '16:9', model: 'veo_fast', overlap: 1 });
    expect(board.scenes).toHaveLength(2);
    expect(board.scenes[0]?.extend).toEqual(['the camera keeps moving toward the lamp room']);
    expect(board.scenes[1]?.start).toBe('previous');
  });

  it('takes JSON too (YAML is a superset), with defaults applied', async () => {
    const board = await parseStoryboardText('{"scenes": [{"prompt": "a calm sea"}]}');
    expect(board).toMatchObject({
      title: 'gflow movie',
      aspect: '16:9',
      overlap: 1,
      scenes: [{ prompt: 'a calm sea' }],
    });
  });

  it('names the scene and field of a schema problem', async () => {
    expect(await refusal('scenes:\n  - prompt: a\n    durration: 8\n')).toMatchObject({
      exit: 2,
      parameter: 'scenes[0]',
    });
    expect(await refusal('scenes:\n  - prompt: a\n  - prompt: b\n    duration: 99\n')).toMatchObject({
      exit: 2,
      parameter: 'scenes[1].duration',
    });
    expect((await refusal('scenes:\n  - prompt: a\n    extend: [""]\n')).parameter).toBe('scenes[0].extend[0]');
    expect((await refusal('title: x\n')).parameter).toBe('scenes');
    const many = `scenes:\n${'  - prompt: a\n'.repeat(MAX_MOVIE_SCENES + 1)}`;
    expect((await refusal(many)).parameter).toBe('scenes');
  });

  it('names the line of a YAML problem, and refuses hostile YAML within bounds', async () => {
    const broken = await refusal('scenes:\n  - prompt: [unclosed\n');
    expect(broken).toMatchObject({ exit: 2, parameter: 'storyboard' });
    expect(broken.detail).toMatch(/^storyboard line \d+: YAML/);
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...'bcdefgh'.split('').map(
        (k, i) =>
          `${k}: &${k} [${Array(10)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(', ')}]`,
      ),
      'scenes: [{prompt: *h}]',
    ].join('\n');
    expect((await refusal(bomb)).detail).toMatch(/alias/);
    expect((await refusal(`${'['.repeat(40)}${']'.repeat(40)}`)).detail).toMatch(
      /deeper than 16 levels \(the limit for a storyboard\)/,
    );
    expect((await refusal('__proto__: {}\nscenes: [{prompt: a}]\n')).detail).toMatch(/may not be used as a key/);
    expect((await refusal(`scenes: [{prompt: "${'a'.repeat(300 * 1024)}"}]`)).detail).toMatch(
      /a storyboard may be at most 256 KiB/,
    );
  });

  it('checks an object the same way (MCP, the library)', () => {
    expect(() => parseStoryboard({ scenes: [{ prompt: 'a', media_id: 'not-a-uuid' }] })).toThrow(
      /scenes\[0\]\.media_id/,
    );
  });
});
