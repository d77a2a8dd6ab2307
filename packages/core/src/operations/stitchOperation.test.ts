import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exitCodeOf, hasErrorCode } from '@gflow/errors';
import { makeMp4 } from '@gflow/flow-sim';
import { createGflow } from '../runtime/createGflow.js';
import type { Gflow } from '../runtime/gflow.js';
import type { Surface } from '../runtime/surfacePolicy.js';
import { trimsFor } from './stitchOperation.js';

let home: string;
let out: string;
let gflow: Gflow | undefined;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-stitch-op-'));
  out = path.join(home, 'out');
  fs.mkdirSync(out);
});
afterEach(async () => {
  await gflow?.close();
  gflow = undefined;
  fs.rmSync(home, { recursive: true, force: true });
});

const make = (surface: Surface = 'library') =>
  (gflow = createGflow({ surface, env: { GFLOW_CLI_HOME: home, GFLOW_CLI_OUTPUT_DIR: out }, cwd: home }));

function clip(file: string, seconds: number, width = 128, height = 72): string {
  fs.writeFileSync(file, makeMp4({ width, height, seconds, key: file }));
  return file;
}

interface Stitched {
  path: string;
  seconds: number;
  frames: number;
  clips: Array<{ input: string; media_id: string | null; trimmed_seconds: number }>;
  operation_id: number | null;
}

describe('stitchVideos', () => {
  it('joins files: the duration and frames are the sum; the file is written; nothing is catalogued without a media id', async () => {
    const g = make();
    const a = clip(path.join(out, 'a.mp4'), 8);
    const b = clip(path.join(out, 'b.mp4'), 7);
    const result = (await g.run('stitchVideos', { inputs: [a, b], output: path.join(out, 'ab.mp4') })) as Stitched;
    expect(result).toMatchObject({ seconds: 15, frames: 360, operation_id: null });
    expect(fs.readFileSync(result.path).subarray(4, 8).toString('latin1')).toBe('ftyp');
  });

  it('resolves catalogued media ids to their local copies and records the stitch with lineage to them', async () => {
    const g = await make().ready();
    const files = [clip(path.join(out, 'm1.mp4'), 8), clip(path.join(out, 'm2.mp4'), 7)];
    const ids: [string, string] = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];
    for (const [i, id] of ids.entries()) {
      const asset = g.catalog.assets.record({ profile: 'ana', flowMediaId: id, kind: 'video', flowProjectId: 'p1' });
      const bytes = fs.readFileSync(files[i]!);
      const sha256 = (await import('node:crypto')).createHash('sha256').update(bytes).digest('hex');
      g.catalog.localFiles.record({
        assetId: asset.id,
        path: files[i]!,
        bytes: bytes.length,
        sha256,
        mediaType: 'video/mp4',
      });
    }
    const result = (await g.run('stitchVideos', {
      inputs: [ids[0], ids[1]],
      output: path.join(out, 'long.mp4'),
      overlap: 1,
    })) as Stitched;
    expect(result.seconds).toBe(14);
    expect(result.clips.map((c) => c.media_id)).toEqual(ids);
    expect(result.operation_id).not.toBeNull();
    const linked = g.catalog.lineage.assetsOf(result.operation_id!);
    expect(linked.map((l) => [l.role, l.position, l.mediaId])).toEqual([
      ['input', 0, ids[0]],
      ['input', 1, ids[1]],
    ]);
    expect(JSON.parse(g.catalog.operations.get(result.operation_id!)!.metadataJson)).toMatchObject({
      output: result.path,
      seconds: 14,
    });
  });

  it('refuses an existing output unless overwrite, before reading any clip', async () => {
    const g = make();
    const a = clip(path.join(out, 'a.mp4'), 2);
    const taken = path.join(out, 'taken.mp4');
    fs.writeFileSync(taken, 'keep me');
    const error = await g.run('stitchVideos', { inputs: [a, 'nope.mp4'], output: taken }).catch((e: unknown) => e);
    expect(hasErrorCode(error, 'invalid-output')).toBe(true);
    expect(exitCodeOf(error)).toBe(2);
    expect(fs.readFileSync(taken, 'utf8')).toBe('keep me');
    await g.run('stitchVideos', { inputs: [a, a], output: taken, overwrite: true });
    expect(fs.readFileSync(taken).subarray(4, 8).toString('latin1')).toBe('ftyp');
  });

  it('MCP: the output and the files it reads stay inside the output directory', async () => {
    const g = make('mcp');
    clip(path.join(out, 'a.mp4'), 2);
    const outside = clip(path.join(home, 'outside.mp4'), 2);
    const escape = await g
      .run('stitchVideos', { inputs: ['a.mp4', 'a.mp4'], output: '../escaped.mp4' })
      .catch((e: unknown) => e);
    expect(hasErrorCode(escape, 'invalid-output')).toBe(true);
    const read = await g.run('stitchVideos', { inputs: ['a.mp4', outside], output: 'x.mp4' }).catch((e: unknown) => e);
    expect(hasErrorCode(read, 'invalid-output')).toBe(true);
    const ok = (await g.run('stitchVideos', { inputs: ['a.mp4', 'a.mp4'], output: 'sub/aa.mp4' })) as Stitched;
    expect(ok.path).toBe(path.join(out, 'sub', 'aa.mp4'));
    expect(fs.existsSync(path.join(home, 'escaped.mp4'))).toBe(false);
  });

  it('refuses inputs it cannot use: no such file or id (2), an unknown media id (32), another size (2)', async () => {
    const g = make();
    const a = clip(path.join(out, 'a.mp4'), 2);
    const missing = await g
      .run('stitchVideos', { inputs: [a, 'missing.mp4'], output: path.join(out, 'x.mp4') })
      .catch((e: unknown) => e);
    expect(exitCodeOf(missing)).toBe(2);
    const unknown = await g
      .run('stitchVideos', { inputs: [a, '33333333-3333-4333-8333-333333333333'], output: path.join(out, 'x.mp4') })
      .catch((e: unknown) => e);
    expect(exitCodeOf(unknown)).toBe(32);
    const tall = clip(path.join(out, 'tall.mp4'), 2, 72, 128);
    const apart = await g
      .run('stitchVideos', { inputs: [a, tall], output: path.join(out, 'x.mp4') })
      .catch((e: unknown) => e);
    expect(exitCodeOf(apart)).toBe(2);
    expect(String((apart as Error).message)).toContain('the first is 128×72, the second 72×128');
    expect(fs.existsSync(path.join(out, 'x.mp4'))).toBe(false);
  });

  it('trims: one overlap for every join, or one per join', () => {
    expect(trimsFor({ inputs: ['a', 'b', 'c'], overlap: 1, overlaps: undefined })).toEqual([1, 1]);
    expect(trimsFor({ inputs: ['a', 'b', 'c'], overlap: 0, overlaps: [1, 0] })).toEqual([1, 0]);
    expect(() => trimsFor({ inputs: ['a', 'b', 'c'], overlap: 0, overlaps: [1] })).toThrow(/one value per join/);
  });
});
