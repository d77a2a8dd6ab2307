import { describe, expect, it } from 'vitest';
import { parseJitter } from './batchOperation.js';
import { parsePromptLines, parseRunConfig } from './runConfigFile.js';

describe('the files and settings of a run of many prompts', () => {
  it('jitter: MIN-MAX, N or 0 in seconds; junk and MIN > MAX refused', () => {
    expect(parseJitter('0.5-1.5')).toEqual({ minMs: 500, maxMs: 1500 });
    expect(parseJitter('2')).toEqual({ minMs: 2000, maxMs: 2000 });
    expect(parseJitter('0')).toEqual({ minMs: 0, maxMs: 0 });
    for (const bad of ['soon', '2-1', '-1', '1-700', '']) expect(() => parseJitter(bad), bad).toThrow(/jitter/);
  });

  it('a prompts file: one per line, blank lines and # comments skipped', () => {
    expect(parsePromptLines('# shots\na fox\n\n  a hare  \r\n#x\nan owl')).toEqual(['a fox', 'a hare', 'an owl']);
  });

  it('a run config in JSON or TOML, the original shape', () => {
    const json = parseRunConfig(
      'run.json',
      JSON.stringify({ prompts: [{ text: 'a', aspect_ratio: '16:9', count: 2, output_filename: 'a.jpg' }] }),
    );
    expect(json).toEqual([{ text: 'a', aspect_ratio: '16:9', count: 2, output_filename: 'a.jpg' }]);
    const toml = parseRunConfig('run.toml', '[[prompts]]\ntext = "b"\nmodel = "nano-pro"\n');
    expect(toml).toEqual([{ text: 'b', model: 'nano-pro' }]);
    expect(parseRunConfig('run.cfg', '[{"text": "c"}]')).toEqual([{ text: 'c' }]);
  });

  it('a bad config names the prompt and the fault (exit 2)', () => {
    const cases: Array<[string, RegExp]> = [
      ['{"prompts": []}', /holds 0 prompts/],
      ['{"prompts": [{"txt": "a"}]}', /Prompt 1 has the unknown key/],
      ['{"prompts": [{"text": "a"}, {"text": ""}]}', /Prompt 2 has no text/],
      ['{"prompts": [{"text": "a", "count": 1.5}]}', /whole number/],
      ['{"prompts": [{"text": "a", "output_filename": "dir/"}]}', /must name a file/],
      ['not json', /not valid JSON/],
      ['{"shots": []}', /no "prompts" list/],
    ];
    for (const [text, message] of cases) {
      const error = (() => {
        try {
          parseRunConfig('run.json', text);
        } catch (e) {
          return e as { exitCode: number; message: string };
        }
        return null;
      })();
      expect(error?.message, text).toMatch(message);
      expect(error?.exitCode).toBe(2);
    }
    expect(() => parseRunConfig('run.json', JSON.stringify({ prompts: Array(51).fill({ text: 'x' }) }))).toThrow(
      /holds 51 prompts/,
    );
  });
});
