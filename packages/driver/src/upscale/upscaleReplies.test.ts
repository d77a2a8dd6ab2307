import { describe, expect, it } from 'vitest';
import { exitCodeOf } from '@gflow/errors';
import { findUpsampledState, parseImageUpscaleReply, parseVideoUpscaleReply } from './upscaleReplies.js';

const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(40, 7)]);
const code = (f: () => unknown): number => {
  try {
    f();
  } catch (e) {
    return exitCodeOf(e);
  }
  return 0;
};

describe('upscale replies', () => {
  it('decodes the SPrCad base64 JPEG', () => {
    const out = parseImageUpscaleReply([['metadata'], jpeg.toString('base64')]);
    expect(out.extension).toBe('.jpg');
    expect(out.bytes.equals(jpeg)).toBe(true);
  });
  it('refuses SPrCad replies without an image (7)', () => {
    expect(code(() => parseImageUpscaleReply(null))).toBe(7);
    expect(
      code(() =>
        parseImageUpscaleReply([['metadata'], Buffer.from('not an image at all, just text').toString('base64')]),
      ),
    ).toBe(7);
    expect(code(() => parseImageUpscaleReply([['metadata']]))).toBe(7);
  });
  it('reads the upsampled job id from p0UkFb', () => {
    expect(parseVideoUpscaleReply(['m-1_upsampled'], 'm-1')).toBe('m-1_upsampled');
    expect(code(() => parseVideoUpscaleReply(['m-1'], 'm-1'))).toBe(7);
  });
  it('finds the upsampled record by shape in a jwpduf reply', () => {
    const details = new Array<unknown>(14).fill(null);
    details[8] = [3];
    details[13] = 4321;
    const info = new Array<unknown>(17).fill(null);
    info[8] = 'https://flow-content.google/video/m-1_upsampled?Signature=x';
    const record = ['w', 'p', 'm-1_upsampled', 'CAE', null, details, null, [info]];
    expect(
      findUpsampledState([null, 881, [[['w2', 'p', 'other', null, null, []]], [record]]], 'm-1_upsampled'),
    ).toEqual({ status: 3, videoUrl: info[8], byteSize: 4321 });
    expect(findUpsampledState([null, 881, []], 'm-1_upsampled')).toBeNull();
  });
});
