import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { createGflow, type Gflow } from '@gflow/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ERAS, closedAfterEach, connectClient, inProcessHandler, type Era } from './clients.js';
import { TEST_MEDIA_ID, captureLogger, makeTestGflow } from './testGflow.js';

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const MIB = 1024 * 1024;

const open = closedAfterEach();

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Writes `bytes` under the home and records it as the asset's local copy (size and SHA-256 of what was written). */
function recordFile(gflow: Gflow, assetId: number, file: string, bytes: Buffer, mediaType?: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, bytes);
  gflow.catalog.localFiles.record({
    assetId,
    path: file,
    bytes: bytes.length,
    sha256: sha256(bytes),
    ...(mediaType ? { mediaType } : {}),
  });
}

/**
 * A catalog in a temporary GFLOW_CLI_HOME: project proj-cats (alice, and an
 * older row in bob) with two images and a video, project proj-dogs with an
 * image that has no file. img-cat-2's file is then tampered (same size,
 * other bytes); vid-cat-1's file is 21 MiB.
 */
async function seededGflow(): Promise<{ gflow: Gflow; files: { cat1: string; cat2: string } }> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-mcp-catalog-'));
  const gflow = createGflow({
    surface: 'mcp',
    env: { GFLOW_CLI_HOME: home, GFLOW_CLI_OUTPUT_DIR: path.join(home, 'out'), GFLOW_CLI_LOG_LEVEL: 'ERROR' },
    cwd: home,
    logger: captureLogger().logger,
  });
  await gflow.ready();
  const { catalog } = gflow;
  catalog.projects.upsert({
    profile: 'bob',
    flowProjectId: 'proj-cats',
    title: 'Cats (bob)',
    createdAt: '2026-01-01T00:00:00.000Z',
  });
  catalog.projects.upsert({
    profile: 'alice',
    flowProjectId: 'proj-cats',
    title: 'Cats',
    createdAt: '2026-02-01T00:00:00.000Z',
  });
  catalog.projects.upsert({
    profile: 'alice',
    flowProjectId: 'proj-dogs',
    title: 'Dogs',
    createdAt: '2026-02-02T00:00:00.000Z',
  });
  const asset = (flowMediaId: string, kind: 'image' | 'video', flowProjectId: string, createdAt: string) =>
    catalog.assets.record({
      profile: 'alice',
      flowMediaId,
      kind,
      flowProjectId,
      model: kind === 'image' ? 'nano2' : 'veo3',
      createdAt,
    });
  const cat1 = asset('img-cat-1', 'image', 'proj-cats', '2026-02-01T01:00:00.000Z');
  const cat2 = asset('img-cat-2', 'image', 'proj-cats', '2026-02-01T02:00:00.000Z');
  const video = asset('vid-cat-1', 'video', 'proj-cats', '2026-02-01T03:00:00.000Z');
  asset('img-dog-1', 'image', 'proj-dogs', '2026-02-02T01:00:00.000Z');
  const out = gflow.settings.outputDir;
  const files = { cat1: path.join(out, 'images', 'img-cat-1.png'), cat2: path.join(out, 'images', 'img-cat-2.png') };
  recordFile(gflow, cat1.id, files.cat1, PNG);
  recordFile(gflow, cat2.id, files.cat2, PNG, 'image/png');
  const tampered = Buffer.from(PNG);
  tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 0xff;
  fs.writeFileSync(files.cat2, tampered);
  const videoFile = path.join(out, 'videos', 'vid-cat-1.mp4');
  fs.mkdirSync(path.dirname(videoFile), { recursive: true });
  fs.writeFileSync(videoFile, '');
  fs.truncateSync(videoFile, 21 * MIB);
  catalog.localFiles.record({
    assetId: video.id,
    path: videoFile,
    bytes: 21 * MIB,
    sha256: 'a'.repeat(64),
    mediaType: 'video/mp4',
  });
  return { gflow, files };
}

async function connect(gflow: Gflow, era: Era): Promise<Client> {
  const handler = inProcessHandler(gflow);
  const client = await connectClient(handler, era);
  open.push({ client, handler, gflow });
  return client;
}

type Contents = ReadonlyArray<{ uri: string; mimeType?: string; blob?: string; text?: string }>;
const only = (contents: Contents) => {
  expect(contents).toHaveLength(1);
  return contents[0] as Contents[number];
};

describe.each(ERAS)('catalog resources (%s era)', (era) => {
  it("serves a catalogued image as a blob: the verified file's bytes, media type from its magic bytes", async () => {
    const { gflow } = await seededGflow();
    const client = await connect(gflow, era);
    const content = only((await client.readResource({ uri: 'gflow://media/img-cat-1' })).contents as Contents);
    expect(content.uri).toBe('gflow://media/img-cat-1');
    expect(content.mimeType).toBe('image/png');
    expect(content.text).toBeUndefined();
    expect(Buffer.from(content.blob ?? '', 'base64').equals(PNG)).toBe(true);
  });

  it('answers not found (-32602) for a tampered file, an unknown id, an asset without a file and a malformed id', async () => {
    const { gflow, files } = await seededGflow();
    expect(fs.statSync(files.cat2).size).toBe(PNG.length); // same size: only the SHA-256 can tell
    const client = await connect(gflow, era);
    for (const id of ['img-cat-2', 'no-such-media', 'img-dog-1', 'bad.id']) {
      await expect(client.readResource({ uri: `gflow://media/${id}` }), id).rejects.toMatchObject({ code: -32602 });
    }
    // A catalogued asset whose file is gone points at the tool that fetches it again.
    await expect(client.readResource({ uri: 'gflow://media/img-cat-2' })).rejects.toThrow(/gflow_download_media/);
  });

  it('refuses a file above the 20 MiB cap with an error that points at the file path', async () => {
    const { gflow } = await seededGflow();
    const client = await connect(gflow, era);
    const refusal = client.readResource({ uri: 'gflow://media/vid-cat-1' });
    await expect(refusal).rejects.toMatchObject({ code: -32600 });
    await expect(refusal).rejects.toThrow(/21\.0 MiB.*files/s);
  });

  it('lists the newest media a read serves (an edited file is not one), and the newest projects', async () => {
    const { gflow } = await seededGflow();
    const client = await connect(gflow, era);
    const { resources } = await client.listResources();
    const media = resources.filter((r) => r.uri.startsWith('gflow://media/'));
    // img-cat-2's file was edited in place (same size, another SHA-256): its read fails, so it is not offered.
    expect(media.map((r) => r.uri)).toEqual(['gflow://media/vid-cat-1', 'gflow://media/img-cat-1']);
    expect(media[1]).toMatchObject({ name: 'img-cat-1', mimeType: 'image/png', size: PNG.length });
    const projects = resources.filter((r) => r.uri.startsWith('gflow://projects/'));
    expect(projects.map((r) => r.uri)).toEqual(['gflow://projects/proj-dogs', 'gflow://projects/proj-cats']);
    expect(projects[0]).toMatchObject({ title: 'Dogs', mimeType: 'application/json' });
  });

  it('does not list media whose local file was deleted, and lists an edited one again once it is restored', async () => {
    const { gflow, files } = await seededGflow();
    fs.rmSync(files.cat1);
    const client = await connect(gflow, era);
    const uris = async () => (await client.listResources({}, { cacheMode: 'bypass' })).resources.map((r) => r.uri);
    expect(await uris()).not.toContain('gflow://media/img-cat-1');
    expect(await uris()).not.toContain('gflow://media/img-cat-2');
    fs.writeFileSync(files.cat2, PNG);
    expect(await uris()).toContain('gflow://media/img-cat-2');
  });

  it('completes media ids and project ids by prefix, newest first', async () => {
    const { gflow } = await seededGflow();
    const client = await connect(gflow, era);
    const media = await client.complete({
      ref: { type: 'ref/resource', uri: 'gflow://media/{media_id}' },
      argument: { name: 'media_id', value: 'img-c' },
    });
    expect(media.completion.values).toEqual(['img-cat-2', 'img-cat-1']);
    const all = await client.complete({
      ref: { type: 'ref/resource', uri: 'gflow://media/{media_id}' },
      argument: { name: 'media_id', value: '' },
    });
    expect(all.completion.values).toEqual(['img-dog-1', 'vid-cat-1', 'img-cat-2', 'img-cat-1']);
    const projects = await client.complete({
      ref: { type: 'ref/resource', uri: 'gflow://projects/{project_id}' },
      argument: { name: 'project_id', value: 'PROJ-C' },
    });
    expect(projects.completion.values).toEqual(['proj-cats']);
  });

  it('summarises a project: title, profile, counts, newest media with their files; unknown → -32602', async () => {
    const { gflow, files } = await seededGflow();
    const client = await connect(gflow, era);
    const content = only((await client.readResource({ uri: 'gflow://projects/proj-cats' })).contents as Contents);
    expect(content.mimeType).toBe('application/json');
    const summary = JSON.parse(content.text ?? '') as Record<string, unknown>;
    expect(summary).toMatchObject({
      project_id: 'proj-cats',
      title: 'Cats',
      profile: 'alice',
      created_at: '2026-02-01T00:00:00.000Z',
      image_count: 2,
      video_count: 1,
      other_profiles: ['bob'],
      media_scan: { complete: true },
    });
    const newest = summary['newest_media'] as Array<{
      media_id: string;
      kind: string;
      resource: string;
      files: string[];
    }>;
    expect(newest.map((m) => m.media_id)).toEqual(['vid-cat-1', 'img-cat-2', 'img-cat-1']);
    expect(newest[2]).toEqual(
      expect.objectContaining({ kind: 'image', resource: 'gflow://media/img-cat-1', files: [files.cat1] }),
    );
    const dogs = JSON.parse(
      only((await client.readResource({ uri: 'gflow://projects/proj-dogs' })).contents as Contents).text ?? '',
    ) as Record<string, unknown>;
    expect(dogs).toMatchObject({
      image_count: 1,
      video_count: 0,
      newest_media: [{ media_id: 'img-dog-1', files: [] }],
    });
    expect(dogs).not.toHaveProperty('other_profiles');
    await expect(client.readResource({ uri: 'gflow://projects/no-such-project' })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it("links a completed generation's media as gflow://media/<id>, and that link reads back the file's bytes", async () => {
    const { gflow } = makeTestGflow();
    const file = path.join(gflow.settings.outputDir, 'images', 'cat.png');
    const asset = gflow.catalog.assets.record({ profile: 'default', flowMediaId: TEST_MEDIA_ID, kind: 'image' });
    recordFile(gflow, asset.id, file, PNG, 'image/png');
    const client = await connect(gflow, era);
    const result = await client.callTool({ name: 'gflow_generate_image', arguments: { prompt: 'a cat' } });
    expect(result.isError).toBeFalsy();
    const links = (result.content as Array<{ type: string; uri?: string }>)
      .filter((c) => c.type === 'resource_link')
      .map((c) => c.uri);
    expect(links).toEqual([expect.stringMatching(/^file:\/\/.*\/images\/cat\.png$/), `gflow://media/${TEST_MEDIA_ID}`]);
    const content = only((await client.readResource({ uri: links[1] ?? '' })).contents as Contents);
    expect(Buffer.from(content.blob ?? '', 'base64').equals(fs.readFileSync(file))).toBe(true);
  });
});

describe('catalog resources on the modern wire', () => {
  it('hints five minutes for media bytes and thirty seconds for a project summary', async () => {
    const { gflow } = await seededGflow();
    const client = await connect(gflow, 'modern');
    const hint = z.looseObject({ ttlMs: z.number(), cacheScope: z.string() });
    expect(
      await client.request({ method: 'resources/read', params: { uri: 'gflow://media/img-cat-1' } }, hint),
    ).toMatchObject({ ttlMs: 300_000, cacheScope: 'private' });
    expect(
      await client.request({ method: 'resources/read', params: { uri: 'gflow://projects/proj-cats' } }, hint),
    ).toMatchObject({ ttlMs: 30_000, cacheScope: 'private' });
  });
});
