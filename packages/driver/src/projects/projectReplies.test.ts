import { describe, expect, it } from 'vitest';
import { exitCodeOf } from '@gflow/errors';
import { parseCreateProjectReply, parseRenameProjectReply, shapeOf } from './projectReplies.js';

describe('project replies', () => {
  it('reads jHPbke [project_id, [title]]', () => {
    expect(parseCreateProjectReply(['p-1', ['My film']])).toEqual({ project_id: 'p-1', title: 'My film' });
  });
  it('reads o8DA4 [title]', () => {
    expect(parseRenameProjectReply(['New name'])).toEqual({ title: 'New name' });
  });
  it('refuses other shapes with 7 and no values in the detail', () => {
    for (const bad of [null, [], ['', ['t']], ['p', 't'], [1, ['t']]]) {
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
