// The pure parts of recovery: how a settled listing is judged, which clips and images a submit
// may have made, how pending tiles are told apart, and which grid shapes are refused.
import { describe, expect, it } from 'vitest';
import { WireFormatError } from '@gflow/errors';
import type { VideoRecord } from '../wire/videoRecords.js';
import { candidateImages, isCandidateClip, judge } from './findSubmitted.js';
import { checkGridTiles } from './gridTiles.js';
import { sortPending } from './imageListing.js';
import type { FindSubmittedRequest } from './types.js';

const P = '11111111-1111-4111-8111-111111111111';
const A = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const B = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const C = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';
const W = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';
const IMG = 'https://flow-content.google/image/x?Expires=1&Signature=s';

describe('judge', () => {
  const state = { count: 1, settled: true, listedByNow: true };
  it('exactly count new is found, with the workflow ids', () => {
    expect(judge([A], [W], state)).toEqual({ kind: 'found', mediaIds: [A], workflowIds: [W] });
  });
  it('more than count is ambiguous at once, even while something is pending', () => {
    expect(judge([A, B], [], { ...state, settled: false })).toEqual({ kind: 'ambiguous', mediaIds: [A, B] });
  });
  it('fewer than count: none or ambiguous once Flow would have listed it, else look again', () => {
    expect(judge([], [], state)).toEqual({ kind: 'none' });
    expect(judge([A], [], { ...state, count: 2 })).toEqual({ kind: 'ambiguous', mediaIds: [A] });
    expect(judge([], [], { ...state, listedByNow: false })).toBeUndefined();
  });
  it('nothing is decided while pending tiles may still be ours', () => {
    expect(judge([A], [], { ...state, settled: false })).toBeUndefined();
    expect(judge([], [], { ...state, settled: false })).toBeUndefined();
  });
});

function clip(over: Partial<VideoRecord>): VideoRecord {
  return {
    workflowId: W,
    projectId: P,
    mediaId: A,
    status: 2,
    prompt: 'a fox',
    modelKey: null,
    videoUrl: null,
    posterUrl: null,
    byteSize: null,
    aspectIndex: null,
    failureReasons: [],
    createdAt: 1_000_000,
    ...over,
  };
}

describe('isCandidateClip', () => {
  const req: FindSubmittedRequest = {
    projectId: P,
    kind: 'video',
    count: 1,
    knownMediaIds: [B],
    prompt: 'a fox',
    since: 1_000_000,
    timeoutMs: 1,
  };
  it('a new clip of this project with the prompt, made after the click (clock slack allowed)', () => {
    expect(isCandidateClip(clip({}), req)).toBe(true);
    expect(isCandidateClip(clip({ createdAt: 1_000_000 - 4_000 }), req)).toBe(true);
    expect(isCandidateClip(clip({ createdAt: null }), req)).toBe(true);
    expect(isCandidateClip(clip({ prompt: 'a fox Quiet Sailor' }), req)).toBe(true);
  });
  it('not a known clip, an older one, another prompt or another project', () => {
    expect(isCandidateClip(clip({ mediaId: B }), req)).toBe(false);
    expect(isCandidateClip(clip({ createdAt: 1_000_000 - 6_000 }), req)).toBe(false);
    expect(isCandidateClip(clip({ prompt: 'a foxglove' }), req)).toBe(false);
    expect(isCandidateClip(clip({ prompt: null }), req)).toBe(false);
    expect(isCandidateClip(clip({ projectId: C }), req)).toBe(false);
  });
});

describe('pending tiles and images', () => {
  const grid = (pending: Array<string | null>) => ({ images: new Map([[A, IMG]]), pending });
  it('with no listing of clips no pending tile can be told from a clip: all unsettled', () => {
    expect(sortPending(grid([null, B]), null)).toMatchObject({ pendingIds: [], unsettled: 2 });
  });
  it('clips still generating take the unnamed pending tiles; a named tile that is no clip is an image', () => {
    const clips = new Map([[C, clip({ mediaId: C, status: 6 })]]);
    expect(sortPending(grid([null]), clips)).toMatchObject({ pendingIds: [], unsettled: 0 });
    expect(sortPending(grid([null, null]), clips)).toMatchObject({ unsettled: 1 });
    expect(sortPending(grid([B, C]), clips)).toMatchObject({ pendingIds: [B], unsettled: 0 });
    // A finished clip shows no pending tile: an unnamed one beside it may be an image.
    const done = new Map([[C, clip({ mediaId: C, status: 3 })]]);
    expect(sortPending(grid([null]), done)).toMatchObject({ unsettled: 1 });
  });
  it('candidates: finished and pending images the caller does not know, once each', () => {
    const seen = sortPending(
      {
        images: new Map([
          [A, IMG],
          [B, IMG],
        ]),
        pending: [C, C],
      },
      new Map(),
    );
    expect(candidateImages(seen, [A])).toEqual([B, C]);
  });
});

describe('checkGridTiles refuses what it cannot read (exit 7)', () => {
  it('reads named tiles with allowed URLs', () => {
    const read = checkGridTiles({ images: [{ id: A, src: 'https://flow.google.com/asb/CAEx' }], pending: [null] }, P);
    expect([...read.images.keys()]).toEqual([A]);
  });
  it.each([
    ['an image tile without a media id', { images: [{ id: null, src: IMG }], pending: [] }],
    ['a tile id that is no UUID', { images: [{ id: 'x', src: IMG }], pending: [] }],
    ['a picture off the media allowlist', { images: [{ id: A, src: 'https://evil.example/a.jpg' }], pending: [] }],
    ['a pending tile naming no UUID', { images: [], pending: ['x'] }],
  ])('%s', (_what, raw) => {
    expect(() => checkGridTiles(raw, P)).toThrow(WireFormatError);
  });
});
