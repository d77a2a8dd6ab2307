import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { askedPathsFor, freeVariantOf, targetPathFor } from './mediaFiles.js';

const base = { outputDir: '/out', kind: 'image' as const, mediaId: 'm-1', index: 1, count: 1, extension: 'jpg' };

describe('targetPathFor: the extension always says what the bytes are', () => {
  it.each([
    ['/w/shot.png', '/w/shot.jpg'],
    ['/w/shot.PNG', '/w/shot.jpg'],
    ['/w/noext', '/w/noext.jpg'],
    ['/w/shot.jpeg', '/w/shot.jpeg'],
    ['/w/shot.jpg', '/w/shot.jpg'],
    ['/w/take.v2', '/w/take.v2.jpg'],
  ])('-o %s on JPEG bytes writes %s', (asked, written) => {
    expect(targetPathFor({ ...base, outputFile: asked })).toBe(written);
  });

  it('several results number the stem: shot_1.jpg, shot_2.jpg', () => {
    expect(targetPathFor({ ...base, count: 2, index: 2, outputFile: '/w/shot.png' })).toBe('/w/shot_2.jpg');
  });

  it('a flat directory names each file by its media id; the tree keeps its layout', () => {
    expect(targetPathFor({ ...base, flatDir: '/flat' })).toBe('/flat/m-1.jpg');
    expect(targetPathFor({ ...base, kind: 'video', extension: 'mp4', now: new Date('2026-12-02T10:00:00Z') })).toBe(
      '/out/videos/2026-12-02/m-1.mp4',
    );
  });

  it('askedPathsFor lists the names a run would take before the bytes are known', () => {
    expect(askedPathsFor('/w/shot.png', 1)).toEqual(['/w/shot.png']);
    expect(askedPathsFor('/w/shot.png', 2)).toEqual(['/w/shot_1.png', '/w/shot_2.png']);
    expect(askedPathsFor('/w/take.v2', 2)).toEqual(['/w/take.v2_1', '/w/take.v2_2']);
  });
});

describe('freeVariantOf never hands back a name that is taken', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-names-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a free name is itself; a taken one gets -2, then -3', () => {
    const target = path.join(dir, 'shot.jpg');
    expect(freeVariantOf(target)).toBe(target);
    fs.writeFileSync(target, 'a');
    expect(freeVariantOf(target)).toBe(path.join(dir, 'shot-2.jpg'));
    fs.writeFileSync(path.join(dir, 'shot-2.jpg'), 'b');
    expect(freeVariantOf(target)).toBe(path.join(dir, 'shot-3.jpg'));
  });
});
