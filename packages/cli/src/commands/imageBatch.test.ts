// What `gflow image batch` reads from its manifest: the columns its help names (prompt, count,
// aspect_ratio, model), a header row naming them taken as names and not as a prompt, and `text`
// kept as the older spelling of `prompt`.
import { exitCodeOf } from '@gflow/errors';
import { describe, expect, it } from 'vitest';
import { parseBatchManifest } from './imageBatch.js';

const refusal = (file: string, text: string): { exit: number | undefined; message: string } => {
  try {
    parseBatchManifest(file, text);
  } catch (error) {
    return { exit: exitCodeOf(error), message: (error as Error).message };
  }
  throw new Error('the manifest was accepted');
};

describe('image batch manifest', () => {
  it('TSV: rows are prompt, count, aspect_ratio, model; blank lines and # comments are skipped', () => {
    expect(parseBatchManifest('a.tsv', '# shots\na pier\t1\t16:9\n\na boat\t2\t\tnano-pro\nan owl\n')).toEqual([
      { prompt: 'a pier', count: 1, aspect_ratio: '16:9' },
      { prompt: 'a boat', count: 2, model: 'nano-pro' },
      { prompt: 'an owl' },
    ]);
  });

  it('TSV: a first row of column names is a header, not a prompt, and orders the columns', () => {
    expect(parseBatchManifest('a.tsv', 'prompt\tcount\taspect_ratio\tmodel\na pier\t1\t16:9\tnano2\n')).toEqual([
      { prompt: 'a pier', count: 1, aspect_ratio: '16:9', model: 'nano2' },
    ]);
    expect(parseBatchManifest('a.tsv', 'Model\tPrompt\tAspect_Ratio\r\nnano2\ta pier\t1:1\r\n')).toEqual([
      { prompt: 'a pier', aspect_ratio: '1:1', model: 'nano2' },
    ]);
    expect(parseBatchManifest('a.tsv', 'text\tcount\na pier\t2\n')).toEqual([{ prompt: 'a pier', count: 2 }]);
    // A header without a prompt column, or one that names a column twice, is refused.
    expect(refusal('a.tsv', 'count\tmodel\n1\tnano2\n')).toMatchObject({ exit: 2, message: /prompt column/ });
    expect(refusal('a.tsv', 'prompt\ttext\na\tb\n')).toMatchObject({ exit: 2, message: /twice/ });
    // A header alone holds no prompt.
    expect(refusal('a.tsv', 'prompt\tcount\n')).toMatchObject({ exit: 2, message: /this one has 0/ });
  });

  it('JSON: entries take prompt (text is kept as its alias); an unknown key is refused naming the known ones', () => {
    expect(
      parseBatchManifest(
        'a.json',
        JSON.stringify([
          { prompt: 'a pier', count: 2 },
          { text: 'a boat', model: 'm' },
        ]),
      ),
    ).toEqual([
      { prompt: 'a pier', count: 2 },
      { prompt: 'a boat', model: 'm' },
    ]);
    expect(refusal('a.json', JSON.stringify([{ prompt: 'a', text: 'b' }]))).toMatchObject({
      exit: 2,
      message: /prompt or text, not both/,
    });
    expect(refusal('a.json', JSON.stringify([{ prompt: 'a', aspect: '1:1' }]))).toMatchObject({
      exit: 2,
      message: /entry 1: unknown key "aspect"; known: prompt, count, aspect_ratio, model/,
    });
    expect(refusal('a.json', JSON.stringify([{ count: 1 }]))).toMatchObject({ exit: 2, message: /prompt/ });
    expect(refusal('a.json', '{not json')).toMatchObject({ exit: 2, message: /not valid JSON/ });
  });
});
