import { describe, expect, it } from 'vitest';
import { framesStillLeft } from './warmPage.js';

const START = '0f8fad5b-d9cb-469f-a165-70867728950e';
const END = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const left = { thumbs: ['/asb/CAEstart'], mediaIds: [START] };

describe('framesStillLeft (issue 45: a kept page keeps the frames its last run sent, and only those)', () => {
  it('keeps the chips the last run left when they still show the same thumbnails and hold this run’s frames', () => {
    expect(framesStillLeft(left, [START], ['/asb/CAEstart'])).toBe(true);
    const both = { thumbs: ['/asb/CAEstart', '/asb/CAEend'], mediaIds: [START, END] };
    expect(framesStillLeft(both, [START, END], ['/asb/CAEstart', '/asb/CAEend'])).toBe(true);
  });

  it('binds afresh when this run wants other frames, more or fewer of them, or another order', () => {
    expect(framesStillLeft(left, [END], ['/asb/CAEstart'])).toBe(false);
    expect(framesStillLeft(left, [START, END], ['/asb/CAEstart'])).toBe(false);
    expect(framesStillLeft(left, [], ['/asb/CAEstart'])).toBe(false);
    const both = { thumbs: ['/asb/CAEstart', '/asb/CAEend'], mediaIds: [START, END] };
    expect(framesStillLeft(both, [END, START], ['/asb/CAEstart', '/asb/CAEend'])).toBe(false);
  });

  it('binds afresh when the chips changed since: another thumbnail, another count, or none to compare', () => {
    expect(framesStillLeft(left, [START], ['/asb/CAEother'])).toBe(false);
    expect(framesStillLeft(left, [START], [])).toBe(false);
    expect(framesStillLeft(left, [START], ['/asb/CAEstart', '/asb/CAEend'])).toBe(false);
    expect(framesStillLeft({ thumbs: [''], mediaIds: [START] }, [START], [''])).toBe(false);
  });

  it('keeps nothing when nothing is known of the last run', () => {
    expect(framesStillLeft(null, [START], ['/asb/CAEstart'])).toBe(false);
  });
});
