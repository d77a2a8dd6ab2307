// The gallery's cost, measured side by side in one run: its pages against the catalog read a
// CLI listing does (`gflow data list images`, the listMedia operation) on a seeded catalog, and
// its thumbnails (the first one starts the browser; later ones reuse it; cached ones are files)
// against serving the original file. Appends its section to bench/RESULTS.md (mcp.bench.ts
// writes the file first).
//   pnpm --filter @gflow/http bench
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { createGflow } from '@gflow/core';
import { createGflowHttpApp } from '../src/index.js';

const ROUNDS = 30;
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-gallery-bench-'));
const outputDir = path.join(home, 'out');
fs.mkdirSync(outputDir, { recursive: true });
const env = {
  ...process.env,
  GFLOW_CLI_HOME: home,
  GFLOW_CLI_OUTPUT_DIR: outputDir,
  GFLOW_CLI_LOG_LEVEL: 'ERROR',
} as Record<string, string>;
const gflow = createGflow({ surface: 'http', env, cwd: home });
await gflow.ready();
const catalog = gflow.catalog;

/**
 * The catalog a busy user has, written through the catalog's own repositories in one transaction:
 * 4 profiles, 200 projects, 5,000 media (4 in 5 images), each made by an operation with a prompt
 * and with a recorded local file; every 25th operation failed instead.
 */
function seed(): { readonly mediaId: (i: number) => string; readonly profiles: number } {
  const mediaId = (i: number): string => `b${i.toString(16).padStart(7, '0')}-0000-4000-8000-000000000000`;
  const projectId = (i: number): string => `a${i.toString(16).padStart(7, '0')}-0000-4000-8000-000000000000`;
  const profileOf = (i: number): string => `profile${i % 4}`;
  catalog.transaction(() => {
    for (let p = 0; p < 200; p++)
      catalog.projects.upsert({ profile: profileOf(p), flowProjectId: projectId(p), title: `Project ${p}` });
    for (let i = 0; i < 5000; i++) {
      const p = i % 200;
      const kind = i % 5 === 4 ? 'video' : 'image';
      const operation = catalog.operations.start({
        profile: profileOf(p),
        command: kind === 'video' ? 'video t2v' : 'image t2i',
        prompt: `prompt ${i}: a ${['fox', 'owl', 'heron', 'hare'][i % 4]} at ${['dawn', 'dusk', 'noon'][i % 3]}`,
        model: kind === 'video' ? 'veo_3_1_lite' : 'nano2',
      });
      const asset = catalog.assets.record({
        profile: profileOf(p),
        flowMediaId: mediaId(i),
        kind,
        flowProjectId: projectId(p),
        model: kind === 'video' ? 'veo_3_1_lite' : 'nano2',
      });
      catalog.assets.link(operation.id, asset.id, 'output');
      catalog.localFiles.record({ assetId: asset.id, path: path.join(outputDir, `${mediaId(i)}.bin`), bytes: 1000 });
      if (i % 25 === 0) catalog.operations.fail(operation.id, { errorType: 'media-download', errorDetail: 'dropped' });
      else catalog.operations.succeed(operation.id);
    }
  });
  return { mediaId, profiles: 4 };
}
const seeded = seed();

/** A real picture to make thumbnails of: a w×h PNG with a gradient (zlib only; no image library). */
function png(width: number, height: number, tint: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer): number => {
    let c = 0xffffffff;
    for (const byte of bytes) c = (crcTable[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer): Buffer => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, tail]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      rows[row + 1 + x * 3] = (x * 255) / width;
      rows[row + 2 + x * 3] = (y * 255) / height;
      rows[row + 3 + x * 3] = tint;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// Six of the seeded images get a real 1376×768 file inside the output directory.
const real = Array.from({ length: 6 }, (_, i) => {
  const mediaId = seeded.mediaId(i * 5);
  const asset = catalog.media.lookup(mediaId)[0]?.asset;
  if (!asset) throw new Error(`seeded media ${mediaId} is missing`);
  const bytes = png(1376, 768, i * 40);
  const file = path.join(outputDir, `${mediaId}.png`);
  fs.writeFileSync(file, bytes);
  catalog.localFiles.record({ assetId: asset.id, path: file, bytes: bytes.length });
  return mediaId;
});

const app = createGflowHttpApp(gflow, { host: '127.0.0.1', port: 8000 });
const get = async (url: string): Promise<Response> => {
  const response = await app.fetch(new Request(`http://127.0.0.1:8000${url}`, { headers: { host: '127.0.0.1:8000' } }));
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  await response.arrayBuffer();
  return response;
};

async function median(run: () => Promise<unknown>, rounds = ROUNDS): Promise<number> {
  for (let i = 0; i < 3; i++) await run();
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)] as number;
}

const listing = await median(() => gflow.run('listMedia', { kind: 'image', limit: 200 }));
const pages: Array<[string, string]> = [
  ['projects (`/`)', '/'],
  ['all media, 200 tiles (`/media`)', '/media'],
  ['images whose prompt has two words (`/media?kind=image&q=owl+dusk`)', '/media?kind=image&q=owl+dusk'],
  ['one media page (`/media/ID`)', `/media/${real[0]}`],
  ['failures (`/failures`)', '/failures'],
  ['running tasks (`/tasks`)', '/tasks'],
];
const pageTimes: Array<[string, number]> = [];
for (const [label, url] of pages) pageTimes.push([label, await median(() => get(url))]);

const first = performance.now();
await get(`/thumbs/${real[1]}`);
const coldMs = performance.now() - first;
const warm: number[] = [];
for (const mediaId of real.slice(2)) {
  const start = performance.now();
  await get(`/thumbs/${mediaId}`);
  warm.push(performance.now() - start);
}
const warmMs = warm.sort((a, b) => a - b)[Math.floor(warm.length / 2)] as number;
const cachedMs = await median(() => get(`/thumbs/${real[1]}`));
const originalMs = await median(() => get(`/files/${real[1]}`));
const thumbBytes = fs.statSync(
  path.join(home, 'cache', 'thumbnails', fs.readdirSync(path.join(home, 'cache', 'thumbnails'))[0] as string),
).size;
const originalBytes = fs.statSync(path.join(outputDir, `${real[1]}.png`)).size;

const ms = (value: number): string => `${value.toFixed(value < 10 ? 2 : 0)} ms`;
const lines = [
  '',
  '## @gflow/http: the gallery',
  '',
  `Date: ${new Date().toISOString()}. Node ${process.version}. A catalog of ${seeded.profiles} profiles, 200 projects and 5,000 media (80 % images); pages fetched in process (the daemon's Hono app, no socket), median of ${ROUNDS} after 3 warm-ups.`,
  '',
  '| page | median | vs the same catalog read by `gflow data list images --limit 200` |',
  '|---|---|---|',
  `| listMedia, 200 images (the CLI's read, no HTML) | ${ms(listing)} | 1.0× |`,
  ...pageTimes.map(([label, value]) => `| ${label} | ${ms(value)} | ${(value / listing).toFixed(1)}× |`),
  '',
  '| thumbnail of a 1376×768 PNG | time | vs serving the original file |',
  '|---|---|---|',
  `| first one (starts the browser) | ${ms(coldMs)} | ${(coldMs / originalMs).toFixed(0)}× |`,
  `| next ones (browser running), median of ${warm.length} | ${ms(warmMs)} | ${(warmMs / originalMs).toFixed(0)}× |`,
  `| cached (a file under cache/thumbnails) | ${ms(cachedMs)} | ${(cachedMs / originalMs).toFixed(2)}× |`,
  `| the original file (/files/ID) | ${ms(originalMs)} | 1.00× |`,
  '',
  `A thumbnail is ${(thumbBytes / 1024).toFixed(0)} KiB, the original ${(originalBytes / 1024).toFixed(0)} KiB (${(originalBytes / thumbBytes).toFixed(0)}× smaller to send).`,
  '',
];
process.stdout.write(lines.join('\n'));
fs.appendFileSync(path.join(import.meta.dirname, 'RESULTS.md'), lines.join('\n'));
await app.close();
await gflow.close();
fs.rmSync(home, { recursive: true, force: true });
