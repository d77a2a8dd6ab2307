import { describe, expect, it } from 'vitest';
import { MEDIA, OTHER_MEDIA, PROJECT, START, WORKFLOW } from '../../test/helpers/wireFixtures.js';
import { findImageRecords } from './imageRecords.js';

function media(id: string, w: number, h: number, refs: string[] = []): unknown[] {
  const d: unknown[] = new Array<unknown>(16).fill(null);
  d[1] = 4242;
  d[7] = 'a cat';
  d[13] = `https://flow-content.google/image/${id}?Expires=1&Signature=x`;
  d[15] = [null, null, [['a cat']], refs.map((r) => [[null, 1, r]])];
  return [id, null, WORKFLOW, null, null, null, [d, null, [w, h]]];
}

describe('image records', () => {
  it('reads media and joins the workflow for the project id', () => {
    const payload = [
      [[media(MEDIA, 888, 1184, [START])]],
      [[[WORKFLOW, null, null, ['A cat', [1, 2], null, null, MEDIA, 'batch', [1, 2]], PROJECT]]],
    ];
    const [r] = findImageRecords(payload);
    expect(r).toEqual({
      mediaId: MEDIA,
      workflowId: WORKFLOW,
      projectId: PROJECT,
      seed: 4242,
      prompt: 'a cat',
      url: expect.stringContaining('/image/'),
      width: 888,
      height: 1184,
      referenceIds: [START],
      title: 'A cat',
    });
  });

  it('a record without its workflow has no title (and no project)', () => {
    const [r] = findImageRecords([[[media(MEDIA, 1, 2)]], []]);
    expect(r).toMatchObject({ title: null, projectId: null });
  });

  it('reads several media in either nesting', () => {
    const flat = [[media(MEDIA, 1, 2), media(OTHER_MEDIA, 1, 2)], []];
    expect(findImageRecords(flat).map((r) => r.mediaId)).toEqual([MEDIA, OTHER_MEDIA]);
  });

  it('finds nothing in an empty result', () => {
    expect(findImageRecords([[], []])).toEqual([]);
    expect(findImageRecords(null)).toEqual([]);
  });
});
