// Journey 1: sign in → image → video from that image's media id, on every
// surface (CLI, MCP stdio, MCP Streamable HTTP, the library), against the Flow
// simulator in real headless Chromium, with the real SQLite catalog.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGflow, type Gflow } from '@gflow/core';
import { afterAll, describe, expect, it } from 'vitest';
import { json, jsonLines } from '@gflow/testkit';
import { gflowHttp, type ServeProcess } from '@gflow/testkit/cli';
import type { McpConnection } from '@gflow/testkit/mcp';
import { SANDBOX_EMAIL, SANDBOX_PROFILE, submits, useSandbox } from '@gflow/testkit/sandbox';
import { aspectError, imagePixels, videoPixels } from './helpers/media.js';

const e2e = useSandbox({ seed: 'journey-generate' });

interface Generated {
  readonly status: string;
  readonly flow_media_id: string;
  readonly flow_project_id: string;
  readonly files: string[];
  readonly sandbox?: boolean;
}

const asGenerated = (value: Record<string, unknown>): Generated => value as unknown as Generated;

/** The image file gflow wrote: under `root`, JPEG/PNG magic, the requested aspect. */
function expectImage(file: string, root: string, aspect: string): void {
  expect(path.isAbsolute(file), file).toBe(true);
  expect(file.startsWith(root + path.sep), `${file} is not under ${root}`).toBe(true);
  const pixels = imagePixels(file);
  expect(pixels, `${file} is not a JPEG/PNG`).not.toBeNull();
  expect(path.extname(file)).toBe(pixels?.format === 'png' ? '.png' : '.jpg');
  expect(aspectError(pixels!, aspect), `${pixels?.width}×${pixels?.height} is not ${aspect}`).toBeLessThan(0.02);
}

/** The video file gflow wrote: under `root`, an MP4 (`ftyp`) whose track has the requested aspect. */
function expectVideo(file: string, root: string, aspect: string): void {
  expect(file.startsWith(root + path.sep), `${file} is not under ${root}`).toBe(true);
  expect(path.extname(file)).toBe('.mp4');
  const pixels = videoPixels(file);
  expect(pixels, `${file} is not an MP4`).not.toBeNull();
  expect(aspectError(pixels!, aspect), `${pixels?.width}×${pixels?.height} is not ${aspect}`).toBeLessThan(0.01);
}

/**
 * What the simulator received for an image then an i2v video of that image:
 * ogiZ0b, then eb1hJf (nprQif with an end frame), in the image's project, and
 * the video's start frame is that image — the media itself, or an upload of
 * exactly its bytes.
 */
function expectImageThenI2v(image: Generated, video: Generated): void {
  const sent = submits(e2e.sim);
  expect(sent[0]).toBe('ogiZ0b');
  expect(sent).toHaveLength(2);
  expect(['eb1hJf', 'nprQif']).toContain(sent[1]);
  expect(e2e.sim.received.submits().every((entry) => entry.httpStatus === 200)).toBe(true);
  // A chained generation stays in its source media's project.
  expect(video.flow_project_id).toBe(image.flow_project_id);

  const videoSubmit = e2e.sim.received.submits()[1]!;
  const request = (JSON.parse(String(videoSubmit.inner)) as unknown[][][])[0]?.[0] as unknown[] | undefined;
  const startFrame = (request?.[5] as unknown[] | undefined)?.[0];
  expect(typeof startFrame, `no start frame in ${String(videoSubmit.inner).slice(0, 300)}`).toBe('string');
  if (startFrame !== image.flow_media_id) {
    const imageBytes = fs.readFileSync(image.files[0]!).toString('base64');
    const uploads = e2e.sim.received
      .calls('maseQ')
      .map((call) => ((JSON.parse(String(call.inner)) as unknown[][])[0]?.[1] as string | undefined) ?? '');
    expect(
      uploads.includes(imageBytes),
      `the start frame ${String(startFrame)} is neither the image ${image.flow_media_id} nor an upload of its bytes`,
    ).toBe(true);
  }
}

/** The catalog rows `gflow data list images|videos --sandbox --json` shows for two media ids. */
async function expectCatalogRows(
  image: Generated,
  video: Generated,
  imageAspect: string,
  videoAspect: string,
): Promise<void> {
  const images = jsonLines(await e2e.cli(['data', 'list', 'images', '--sandbox', '--json', '--limit', '100']));
  const videos = jsonLines(await e2e.cli(['data', 'list', 'videos', '--sandbox', '--json', '--limit', '100']));
  const imageRow = images.find((row) => row['media_id'] === image.flow_media_id);
  const videoRow = videos.find((row) => row['media_id'] === video.flow_media_id);
  expect(imageRow, `no image row for ${image.flow_media_id}`).toMatchObject({
    kind: 'image',
    profile: SANDBOX_PROFILE,
    project_id: image.flow_project_id,
    status: 'ready',
    aspect_ratio: imageAspect,
    path: image.files[0],
    bytes: fs.statSync(image.files[0]!).size,
    file_count: 1,
  });
  expect(videoRow, `no video row for ${video.flow_media_id}`).toMatchObject({
    kind: 'video',
    profile: SANDBOX_PROFILE,
    project_id: video.flow_project_id,
    status: 'ready',
    aspect_ratio: videoAspect,
    path: video.files[0],
    bytes: fs.statSync(video.files[0]!).size,
  });
  const pixels = imagePixels(image.files[0]!);
  expect(imageRow).toMatchObject({ width: pixels?.width, height: pixels?.height });
}

describe('journey 1: image → video from its media id', () => {
  it('via the CLI (image t2i, video i2v --initial-frame <media_id>, data list)', async () => {
    e2e.sim.received.clear();
    const imageRun = await e2e.cli([
      'image',
      't2i',
      'a red fox in fresh snow',
      '--aspect',
      '16:9',
      '--sandbox',
      '--json',
    ]);
    expect(imageRun.exitCode, imageRun.stderr).toBe(0);
    const image = asGenerated(json(imageRun));
    expect(image).toMatchObject({ status: 'completed', sandbox: true });
    expect(image.files).toHaveLength(1);
    expectImage(image.files[0]!, e2e.outputDir, '16:9');

    const videoRun = await e2e.cli([
      'video',
      'i2v',
      'the fox trots away',
      '--initial-frame',
      image.flow_media_id,
      '--aspect',
      '16:9',
      '--sandbox',
      '--json',
    ]);
    expect(videoRun.exitCode, videoRun.stderr).toBe(0);
    const video = asGenerated(json(videoRun));
    expect(video).toMatchObject({ status: 'completed', task_type: 'i2v' });
    expect(video.files).toHaveLength(1);
    expectVideo(video.files[0]!, e2e.outputDir, '16:9');

    expectImageThenI2v(image, video);
    await expectCatalogRows(image, video, '16:9', '16:9');
  }, 180_000);

  describe('via MCP', () => {
    async function journey(conn: McpConnection, imageAspect: string, videoAspect: string): Promise<void> {
      const tools = await conn.toolNames();
      expect(tools).toEqual(expect.arrayContaining(['gflow_generate_image', 'gflow_generate_video']));
      e2e.sim.received.clear();
      const imageReply = await conn.call('gflow_generate_image', {
        prompt: 'a lighthouse at dusk',
        aspect: imageAspect,
      });
      expect(imageReply.isError, JSON.stringify(imageReply.structured)).toBe(false);
      const image = asGenerated(imageReply.structured);
      expect(image.status).toBe('completed');
      expectImage(image.files[0]!, e2e.outputDir, imageAspect);
      // Each file comes back as a resource_link with a file:// URI, and each media id as a gflow://media link.
      const links = imageReply.content
        .filter((item) => item['type'] === 'resource_link')
        .map((item) => String(item['uri']));
      expect(links.filter((uri) => uri.startsWith('file:')).map((uri) => fileURLToPath(uri))).toEqual(image.files);
      expect(links).toContain(`gflow://media/${image.flow_media_id}`);

      const videoReply = await conn.call('gflow_generate_video', {
        prompt: 'the light sweeps the sea',
        mode: 'i2v',
        initial_frame: image.flow_media_id,
        aspect: videoAspect,
      });
      expect(videoReply.isError, JSON.stringify(videoReply.structured)).toBe(false);
      const video = asGenerated(videoReply.structured);
      expect(video.status).toBe('completed');
      expectVideo(video.files[0]!, e2e.outputDir, videoAspect);

      expectImageThenI2v(image, video);
      await expectCatalogRows(image, video, imageAspect, videoAspect);
    }

    it('over stdio (gflow mcp run --sandbox, v2 client, versionNegotiation auto)', async () => {
      const conn = await e2e.mcpStdio(['--sandbox']);
      try {
        await journey(conn, '3:4', '9:16');
      } catch (error) {
        throw new Error(`${String(error)}\nserver stderr:\n${conn.stderr().slice(-3000)}`, { cause: error });
      } finally {
        await conn.close();
      }
    }, 180_000);

    it('over Streamable HTTP (gflow serve --sandbox --port 0)', async () => {
      let serve: ServeProcess | undefined;
      let conn: McpConnection | undefined;
      try {
        serve = await e2e.serve(['--sandbox']);
        conn = await gflowHttp(serve, { era: 'modern' });
        await journey(conn, '1:1', '16:9');
      } catch (error) {
        throw new Error(`${String(error)}\nserver stderr:\n${serve?.run.stderr().slice(-3000) ?? ''}`, {
          cause: error,
        });
      } finally {
        await conn?.close();
        await serve?.stop();
      }
    }, 180_000);
  });

  describe('via the library', () => {
    const EMAIL = 'library.user@example.com';
    const PASSWORD = 'library-password';
    let lib: Gflow | undefined;

    afterAll(async () => {
      await lib?.close();
    });

    it('createGflow with browser overrides: authLogin, generateImage, generateVideo (i2v) and the catalog', async () => {
      e2e.sim.scenario.createAccount({ email: EMAIL, password: PASSWORD, credits: 200, uploadTermsAccepted: true });
      const home = path.join(e2e.home, 'library');
      const outputDir = path.join(home, 'out');
      lib = createGflow({
        surface: 'library',
        env: {
          GFLOW_CLI_HOME: home,
          GFLOW_CLI_OUTPUT_DIR: outputDir,
          GFLOW_CLI_LOG_LEVEL: 'WARNING',
          GFLOW_CLI_TIMEOUT_SECONDS: '120',
        },
        cwd: home,
        browser: {
          ...e2e.runtimeBrowser,
          autofillLogin: { email: EMAIL, password: PASSWORD },
        },
      });
      const login = await lib.run('authLogin', { profile: 'ana', browser: 'internal', account: EMAIL });
      expect(login).toMatchObject({ status: 'authenticated', profile: 'ana', user_email: EMAIL });

      e2e.sim.received.clear();
      const image = asGenerated(
        (await lib.run('generateImage', { prompt: 'a paper boat on a pond', aspect: '4:3', profile: 'ana' })) as Record<
          string,
          unknown
        >,
      );
      expect(image.status, JSON.stringify(image)).toBe('completed');
      expectImage(image.files[0]!, outputDir, '4:3');
      const video = asGenerated(
        (await lib.run('generateVideo', {
          prompt: 'the boat drifts',
          mode: 'i2v',
          initial_frame: image.flow_media_id,
          aspect: '16:9',
          profile: 'ana',
        })) as Record<string, unknown>,
      );
      expect(video.status, JSON.stringify(video)).toBe('completed');
      expectVideo(video.files[0]!, outputDir, '16:9');
      expectImageThenI2v(image, video);
      expect(e2e.sim.received.submits().every((entry) => entry.email === EMAIL)).toBe(true);

      const imageAsset = lib.catalog.assets.getByMediaId('ana', image.flow_media_id);
      const videoAsset = lib.catalog.assets.getByMediaId('ana', video.flow_media_id);
      expect(imageAsset).toMatchObject({ kind: 'image', flowProjectId: image.flow_project_id, aspectRatio: '4:3' });
      expect(videoAsset).toMatchObject({ kind: 'video', flowProjectId: video.flow_project_id, aspectRatio: '16:9' });
      expect(lib.catalog.localFiles.listForAsset(videoAsset!.id)[0]).toMatchObject({
        path: video.files[0],
        bytes: fs.statSync(video.files[0]!).size,
      });
      // The sandbox CLI's account was never billed by the library run.
      expect(e2e.sim.received.submits().some((entry) => entry.email === SANDBOX_EMAIL)).toBe(false);
    }, 180_000);
  });
});
