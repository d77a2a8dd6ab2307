import { describe, expect, it } from 'vitest';
import { exitCodeOf } from '@gflow/errors';
import { parseCreateProjectReply, parseRenameProjectReply, shapeOf } from './projectReplies.js';

describe('project replies', () => {
  const id = '0f3c2a1e-5b6d-4c7e-8f90-a1b2c3d4e5f6';
  it('reads jHPbke by shape: [project_id, [title]] and the wrapped variant [null, [project_id, title]]', () => {
    expect(parseCreateProjectReply([id, ['My film']])).toEqual({ project_id: id, title: 'My film' });
    expect(parseCreateProjectReply([null, [id, 'My film']])).toEqual({ project_id: id, title: 'My film' });
  });
  it('reads o8DA4 by shape: [title], [[title, project_id]], and prefers the title asked for', () => {
    expect(parseRenameProjectReply(['New name'])).toEqual({ title: 'New name' });
    expect(parseRenameProjectReply([['New name', id]])).toEqual({ title: 'New name' });
    expect(parseRenameProjectReply([['x', 'New name']], 'New name')).toEqual({ title: 'New name' });
  });
  it('refuses other shapes with 7 and no values in the detail', () => {
    for (const bad of [null, [], ['', ['t']], ['p', 't'], [1, ['t']], [id]]) {
      const error = (() => {
        try {
          parseCreateProjectReply(bad);
        } catch (e) {
          return e;
        }
        return null;
      })();
      expect(exitCodeOf(error)).toBe(7);
    }
    expect(() => parseRenameProjectReply([null])).toThrow(/o8DA4/);
    expect(shapeOf(['secret', [1, null]])).toBe('[string,[number,null]]');
  });
});
