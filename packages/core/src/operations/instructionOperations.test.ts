import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exitCodeOf } from '@gflow/errors';
import { classifyRefs } from './instructionOperations.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-refs-'));
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
fs.writeFileSync(path.join(dir, 'mood.png'), PNG);
fs.writeFileSync(path.join(dir, 'Board'), PNG);
fs.writeFileSync(path.join(dir, 'notes.txt'), 'just text');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const UUID = '0B7E5C1E-2F3A-4B5C-8D9E-0F1A2B3C4D5E';
const refused = (refs: string[]): number => {
  try {
    classifyRefs(refs, 'refs', dir);
  } catch (error) {
    return exitCodeOf(error);
  }
  return 0;
};

describe('classifyRefs', () => {
  it('files a media UUID as an image, a local image as an upload, anything else as a character', () => {
    expect(classifyRefs([UUID, 'mood.png', path.join(dir, 'Board'), 'Mira', 'e-1234'], 'refs', dir)).toEqual({
      image_media_ids: [UUID.toLowerCase()],
      image_files: [fs.realpathSync(path.join(dir, 'mood.png')), fs.realpathSync(path.join(dir, 'Board'))],
      characters: ['Mira', 'e-1234'],
    });
  });

  it('an existing file without an image extension is a path too (relative to the working directory)', () => {
    expect(classifyRefs(['Board'], 'refs', dir).image_files).toEqual([fs.realpathSync(path.join(dir, 'Board'))]);
  });

  it('refuses a path that is no readable image (2) instead of reading it or calling it a character', () => {
    expect(refused(['missing.png'])).toBe(2);
    expect(refused(['./elsewhere/Mira'])).toBe(2);
    expect(refused(['notes.txt'])).toBe(2);
    expect(refused([dir])).toBe(2);
  });
});
