import { describe, expect, it } from 'vitest';
import { cleanBuildLabel, shapeOf } from './replyShape.js';

describe('shapeOf', () => {
  it('keeps types, kinds, lengths and keys, never a value', () => {
    const payload = [
      [
        [
          '1b4e28ba-2fa1-11d2-883f-0016d3cca427',
          'a prompt with ana@example.com in it',
          'IMAGE',
          'https://flow-content.google/image/x?Expires=1&Signature=abc',
          [1376, 768],
          'media',
        ],
      ],
      { token: 'ya29.secret', '1b4e28ba-2fa1-11d2-883f-0016d3cca427': 2.5 },
      '["nested", 3]',
      '',
      null,
      true,
    ];
    const shape = shapeOf(payload);
    const text = JSON.stringify(shape);
    for (const value of ['ana@example.com', 'prompt', 'IMAGE', 'Signature', 'ya29', '1376', '1b4e28ba', 'nested'])
      expect(text).not.toContain(value);
    expect(shape).toEqual({
      array: 6,
      items: [
        {
          array: 1,
          items: [
            {
              array: 6,
              items: ['string:uuid', 'string', 'string', 'string:url', { array: 2, items: ['int', 'int'] }, 'string'],
            },
          ],
        },
        { object: { token: 'string', '<key>': 'number' } },
        { json: { array: 2, items: ['string', 'int'] } },
        'string:empty',
        'null',
        'boolean',
      ],
    });
  });

  it('bounds depth and breadth', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 50; i += 1) deep = [deep];
    expect(JSON.stringify(shapeOf(deep)).length).toBeLessThan(400);
    const wide = shapeOf(Array.from({ length: 1000 }, () => 1)) as { array: number; items: unknown[] };
    expect(wide.array).toBe(1000);
    expect(wide.items).toHaveLength(20);
  });
});

describe('cleanBuildLabel', () => {
  it('keeps a release name and nothing else', () => {
    expect(cleanBuildLabel('boq_labs-ai-sandbox-frontend_20261006.09_p0')).toBe(
      'boq_labs-ai-sandbox-frontend_20261006.09_p0',
    );
    expect(cleanBuildLabel('ana@example.com')).toBeNull();
    expect(cleanBuildLabel('https://x/y')).toBeNull();
    expect(cleanBuildLabel(42)).toBeNull();
  });
});
