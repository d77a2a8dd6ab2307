import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type SaveTarget, askedPathsFor, freeVariantOf, saveMedia, targetPathFor } from './saveMedia.js';

const file = (asked: string, more: Partial<{ index: number; count: number }> = {}): SaveTarget => ({
  kind: 'file',
  file: asked,
  index: 1,
  count: 1,
  overwrite: false,
  ...more,
});

describe('targetPathFor: the extension always says what the bytes are', () => {
  it.each([
    ['/w/shot.png', '/w/shot.jpg'],
    ['/w/shot.PNG', '/w/shot.jpg'],
    ['/w/noext', '/w/noext.jpg'],
    ['/w/shot.jpeg', '/w/shot.jpeg'],
    ['/w/shot.jpg', '/w/shot.jpg'],
    ['/w/take.v2', '/w/take.v2.jpg'],
  ])('-o %s on JPEG bytes writes %s', (asked, written) => {
    expect(targetPathFor(file(asked), '.jpg')).toBe(written);
  });

  it('several results number the stem: shot_1.jpg, shot_2.jpg', () => {
    expect(targetPathFor(file('/w/shot.png', { count: 2, index: 2 }), '.jpg')).toBe('/w/shot_2.jpg');
  });

  it('a flat directory names each file by its stem; the tree keeps its layout', () => {
    expect(targetPathFor({ kind: 'dir', dir: '/flat', stem: 'm-1' }, '.jpg')).toBe('/flat/m-1.jpg');
    const now = new Date('2026-12-02T10:00:00Z');
    expect(targetPathFor({ kind: 'layout', outputDir: '/out', media: 'video', stem: 'm-1', now }, '.mp4')).toBe(
      '/out/videos/2026-12-02/m-1.mp4',
    );
    expect(targetPathFor({ kind: 'layout', outputDir: '/out', media: 'image', stem: 'm-1_2', now }, '.png')).toBe(
      '/out/images/2026-12-02/m-1_2.png',
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

describe('saveMedia: bytes to a file to its catalog row', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-save-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
  const recorded: unknown[] = [];
  const catalog = { localFiles: { record: (row: unknown) => recorded.push(row) } } as never;
  const context = { outputDir: dir, recovery: 'Fetch it again.' };

  it('writes, records the file on its asset, and says what the name did not ask', async () => {
    fs.writeFileSync(path.join(dir, 'taken.png'), 'mine');
    const saved = await saveMedia(
      catalog,
      { assetId: 7, mediaId: 'm-1', bytes: png, extension: '.png' },
      file(path.join(dir, 'taken.jpg')),
      context,
    );
    expect(saved.path).toBe(path.join(dir, 'taken-2.png'));
    expect(fs.readFileSync(saved.path)).toEqual(png);
    expect(fs.readFileSync(path.join(dir, 'taken.png'), 'utf8')).toBe('mine');
    expect(saved.notes).toEqual([
      'taken.png: the file is PNG, so it is named .png (not .jpg).',
      'taken.png was already there and is kept; wrote taken-2.png.',
    ]);
    expect(recorded.at(-1)).toMatchObject({ assetId: 7, path: saved.path, bytes: png.length, mediaType: 'image/png' });
    // The directory it went into, as the disk resolves it: where the gallery may serve it from.
    expect(recorded.at(-1)).toMatchObject({ writtenDir: fs.realpathSync(dir) });
  });

  it('a write that fails names the media and the recovery, and records nothing', async () => {
    const before = recorded.length;
    const blocker = path.join(dir, 'blocker');
    fs.writeFileSync(blocker, 'a file where a directory should be');
    const error = await saveMedia(
      catalog,
      { assetId: 7, mediaId: 'm-2', bytes: png, extension: '.png' },
      { kind: 'dir', dir: path.join(blocker, 'sub'), stem: 'm-2' },
      context,
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'output-write-failed', extensions: { media_id: 'm-2' } });
    expect(String((error as Error).message)).toContain('Fetch it again.');
    expect(recorded.length).toBe(before);
  });
});
