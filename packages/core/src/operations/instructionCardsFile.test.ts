import { describe, expect, it } from 'vitest';
import { exitCodeOf, toProblem } from '@gflow/errors';
import { parseInstructionCardsFile } from './instructionCardsFile.js';

function refusal(fileName: string, text: string): { exit: number; status: unknown; detail: string; entry: unknown } {
  try {
    parseInstructionCardsFile(fileName, text);
  } catch (error) {
    const problem = toProblem(error);
    return { exit: exitCodeOf(error), status: problem.status, detail: problem.detail, entry: problem['entry'] };
  }
  throw new Error('the file was accepted');
}

describe('parseInstructionCardsFile', () => {
  it('reads the seed shape from JSON: a list, or {cards: [...]}', () => {
    const cards = [
      { title: 'Palette', text: 'Teal and orange', ref: ['a.png', 'Mira'] },
      { title: 'Lens', text: '85mm', enabled: false },
    ];
    expect(parseInstructionCardsFile('cards.json', JSON.stringify(cards))).toEqual(cards);
    expect(parseInstructionCardsFile('cards.json', JSON.stringify({ cards }))).toEqual(cards);
  });

  it('reads [[cards]] tables from TOML (a single ref string is a list of one)', () => {
    const text = [
      '[[cards]]',
      'title = "Palette"',
      'text = """Teal and orange,',
      'soft light."""',
      'ref = ["a.png", "Mira"]',
      '',
      '[[cards]]',
      'title = "Lens"',
      'text = "85mm"',
      'ref = "0b7e5c1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e"',
      'enabled = false',
    ].join('\n');
    expect(parseInstructionCardsFile('cards.toml', text)).toEqual([
      { title: 'Palette', text: 'Teal and orange,\nsoft light.', ref: ['a.png', 'Mira'] },
      { title: 'Lens', text: '85mm', ref: ['0b7e5c1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e'], enabled: false },
    ]);
  });

  it('guesses the format of a file with another name: JSON, then TOML; an empty list is a valid (destructive) set', () => {
    expect(parseInstructionCardsFile('cards', '[]')).toEqual([]);
    expect(parseInstructionCardsFile('cards.txt', 'cards = [{ title = "A", text = "b" }]')).toEqual([
      { title: 'A', text: 'b' },
    ]);
  });

  it.each([
    ['cards.json', '[{"title": "A", "text": "b"}', /not valid JSON/],
    ['cards.toml', '[[cards]\ntitle = 1', /not valid TOML/],
    ['cards.txt', 'neither { nor', /not valid JSON .*and not valid TOML/],
    ['cards.json', '{"card": []}', /holds no list of cards/],
    ['cards.toml', 'title = "A"', /holds no list of cards/],
    ['cards.json', '{"cards": {"title": "A"}}', /"cards" is not a list/],
    ['cards.json', '["A"]', /Card 1 is not a table/],
    ['cards.json', '[{"title": "", "text": "b"}]', /Card 1 has no title/],
    ['cards.json', '[{"title": "A", "text": "b"}, {"title": "B"}]', /Card 2 \("B"\) has no text/],
    ['cards.json', '[{"title": "A", "text": "b", "tilte": "x"}]', /unknown key "tilte"/],
    ['cards.json', '[{"title": "A", "text": "b", "enabled": "no"}]', /"enabled" must be true or false/],
    ['cards.toml', '[[cards]]\ntitle = "A"\ntext = "b"\nref = [1]', /"ref" must be a list of non-empty strings/],
  ])('%s %j is refused with exit 2 / 400, naming what is wrong', (file, text, message) => {
    const r = refusal(file, text);
    expect(r.exit).toBe(2);
    expect(r.status).toBe(400);
    expect(r.detail).toMatch(message);
    expect(r.detail).toContain('[[cards]]');
  });

  it('names the card it refuses', () => {
    expect(refusal('cards.json', '[{"title": "A", "text": "b"}, {"title": "B", "text": ""}]').entry).toBe(2);
  });
});
