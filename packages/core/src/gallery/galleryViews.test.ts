import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Catalog, type TaskQueue, openCatalog, sqliteTaskQueue } from '@gflow/catalog';
import { MediaDownloadError } from '@gflow/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { servableFile } from './galleryFiles.js';
import { galleryFailures, galleryMedia, galleryMediaDetail, galleryProjects, galleryTasks } from './galleryViews.js';
import { commandLine, recreateCommand, shellArg } from './recreateCommand.js';

/** The catalog's own queue behind the port, as the runtime reads it. */
const queueOf = (catalog: Catalog): TaskQueue => sqliteTaskQueue(() => catalog.tasks);

const PROJECT = 'a0000000-0000-4000-8000-000000000001';
const FOX = 'b0000000-0000-4000-8000-000000000001';
const CLIP = 'b0000000-0000-4000-8000-000000000002';
const LOST = 'b0000000-0000-4000-8000-000000000003';
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1]);

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A catalog with a fox (file in the output dir), a clip made from it, and a billed image never downloaded. */
function world() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-gallery-'));
  dirs.push(dir);
  const outputDir = path.join(dir, 'output');
  fs.mkdirSync(outputDir);
  const catalog = openCatalog({ path: path.join(dir, 'gflow.db') });
  catalog.projects.upsert({ profile: 'ana', flowProjectId: PROJECT, title: 'Foxes' });
  const fox = catalog.assets.record({
    profile: 'ana',
    flowMediaId: FOX,
    kind: 'image',
    flowProjectId: PROJECT,
    model: 'nano2',
  });
  const made = catalog.operations.start({ profile: 'ana', command: 'image t2i', prompt: 'a red fox in snow' });
  catalog.assets.link(made.id, fox.id, 'output');
  catalog.operations.succeed(made.id);
  const foxFile = path.join(outputDir, `${FOX}.jpg`);
  fs.writeFileSync(foxFile, JPEG);
  catalog.localFiles.record({ assetId: fox.id, path: foxFile, bytes: JPEG.length });
  const clip = catalog.assets.record({
    profile: 'ana',
    flowMediaId: CLIP,
    kind: 'video',
    flowProjectId: PROJECT,
    model: 'veo_3_1_lite',
  });
  const i2v = catalog.operations.start({ profile: 'ana', command: 'video i2v', mode: 'i2v', prompt: 'it trots away' });
  catalog.assets.link(i2v.id, fox.id, 'seed_start');
  catalog.assets.link(i2v.id, clip.id, 'output');
  catalog.operations.succeed(i2v.id);
  const refused = catalog.operations.start({ profile: 'ana', command: 'image t2i', prompt: 'refused' });
  catalog.operations.failWith(refused.id, new MediaDownloadError('never mind'));
  const lost = catalog.assets.record({ profile: 'ana', flowMediaId: LOST, kind: 'image', flowProjectId: PROJECT });
  const broken = catalog.operations.start({ profile: 'ana', command: 'image t2i', prompt: 'a lighthouse' });
  catalog.assets.link(broken.id, lost.id, 'output');
  catalog.operations.failWith(broken.id, new MediaDownloadError('the download broke'));
  return { catalog, outputDir, foxFile };
}

describe('gallery views', () => {
  it('projects carry their counts, the Flow link and a cover with a local file', () => {
    const { catalog } = world();
    const [project] = galleryProjects(catalog);
    expect(project).toMatchObject({
      project_id: PROJECT,
      title: 'Foxes',
      flow_url: `https://flow.google.com/project/${PROJECT}`,
      image_count: 2,
      video_count: 1,
      cover_media_id: FOX,
    });
    catalog.close();
  });

  it('the grid filters by kind, model, words of the prompt and dates', () => {
    const { catalog } = world();
    expect(galleryMedia(catalog).matched).toBe(3);
    expect(galleryMedia(catalog, { kind: 'video' }).items.map((i) => i.media_id)).toEqual([CLIP]);
    expect(galleryMedia(catalog, { model: 'nano2' }).items.map((i) => i.media_id)).toEqual([FOX]);
    expect(galleryMedia(catalog, { text: 'FOX snow' }).items.map((i) => i.media_id)).toEqual([FOX]);
    expect(galleryMedia(catalog, { text: 'fox owl' }).matched).toBe(0);
    expect(galleryMedia(catalog, { until: '2000-01-01' }).matched).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect(galleryMedia(catalog, { since: today, until: today }).matched).toBe(3);
    expect(galleryMedia(catalog).facets.models).toEqual(['nano2', 'veo_3_1_lite']);
    expect(galleryMedia(catalog).items.find((i) => i.media_id === LOST)?.has_file).toBe(false);
    catalog.close();
  });

  it('a media page links what made it and what was made from it', async () => {
    const { catalog, outputDir } = world();
    const exists = (file: string) => fs.existsSync(file);
    const fox = await galleryMediaDetail(catalog, FOX, { outputDir, exists, tasks: queueOf(catalog) });
    expect(fox?.operation?.prompt).toBe('a red fox in snow');
    expect(fox?.derived.map((d) => [d.mode, d.role, d.outputs.map((o) => o.media_id)])).toEqual([
      ['i2v', 'seed_start', [CLIP]],
    ]);
    expect(fox?.files).toEqual([expect.objectContaining({ exists: true, servable: true })]);
    expect(fox?.download_command).toBe(`gflow data download ${FOX} --profile ana`);
    const clip = await galleryMediaDetail(catalog, CLIP, { outputDir, exists, tasks: queueOf(catalog) });
    expect(clip?.operation?.inputs).toEqual([{ media_id: FOX, kind: 'image', role: 'seed_start', has_file: true }]);
    expect(
      await galleryMediaDetail(catalog, 'c0000000-0000-4000-8000-000000000009', {
        outputDir,
        exists,
        tasks: queueOf(catalog),
      }),
    ).toBeUndefined();
    catalog.close();
  });

  it('failures: the billed-but-not-downloaded first, with the one command that recovers it', async () => {
    const { catalog } = world();
    const failures = await galleryFailures(catalog, queueOf(catalog));
    expect(failures).toHaveLength(2);
    expect(failures[0]?.not_downloaded).toEqual([
      { media_id: LOST, recovery_command: `gflow data download ${LOST} --profile ana` },
    ]);
    expect(failures[0]).toMatchObject({ code: 'media-download', title: 'Media Download Failed', retryable: false });
    expect(failures[0]?.hint).toMatch(/recover it with gflow_download_media/);
    expect(failures[1]?.not_downloaded).toEqual([]);
    catalog.close();
  });

  it('running tasks are listed with their phase; settled ones are not', async () => {
    const { catalog } = world();
    expect(await galleryTasks(queueOf(catalog))).toEqual([]);
    catalog.tasks.create({
      taskId: 'task-1',
      profile: 'ana',
      taskType: 'generate_image',
      payload: { input: { prompt: 'x' } },
    });
    expect(await galleryTasks(queueOf(catalog))).toEqual([
      expect.objectContaining({ task_id: 'task-1', status: 'pending', prompt: 'x' }),
    ]);
    catalog.close();
  });
});

describe('servable files', () => {
  it('serves the catalogued copy inside the output directory, and nothing that escapes it', async () => {
    const { catalog, outputDir, foxFile } = world();
    expect(servableFile(catalog, FOX, outputDir)).toMatchObject({
      path: fs.realpathSync(foxFile),
      mimeType: 'image/jpeg',
    });
    expect(servableFile(catalog, '../../etc/passwd', outputDir)).toBeUndefined();
    // An upscale is a newer, larger copy: the page shows it, a thumbnail is made from the original.
    const upscale = path.join(outputDir, `${FOX}_2k.jpg`);
    const big = Buffer.concat([JPEG, Buffer.alloc(64)]);
    fs.writeFileSync(upscale, big);
    const asset = catalog.media.lookup(FOX)[0]?.asset;
    catalog.localFiles.record({ assetId: asset?.id ?? -1, path: upscale, bytes: big.length });
    expect(servableFile(catalog, FOX, outputDir)?.path).toBe(fs.realpathSync(upscale));
    expect(servableFile(catalog, FOX, outputDir, 'smallest')?.path).toBe(fs.realpathSync(foxFile));
    fs.rmSync(upscale);
    expect(servableFile(catalog, LOST, outputDir)).toBeUndefined();
    // A symlink inside the output directory that leads out, and a changed size, are refused.
    const outside = path.join(path.dirname(outputDir), 'secret.jpg');
    fs.writeFileSync(outside, JPEG);
    fs.rmSync(foxFile);
    fs.symlinkSync(outside, foxFile);
    expect(servableFile(catalog, FOX, outputDir)).toBeUndefined();
    // The media page agrees: it offers no player for that copy.
    const page = await galleryMediaDetail(catalog, FOX, {
      outputDir,
      exists: (file) => fs.existsSync(file),
      tasks: queueOf(catalog),
    });
    expect(page?.files.find((f) => f.path === foxFile)?.servable).toBe(false);
    fs.rmSync(foxFile);
    fs.writeFileSync(foxFile, Buffer.concat([JPEG, JPEG]));
    expect(servableFile(catalog, FOX, outputDir)).toBeUndefined();
    catalog.close();
  });

  it('serves a copy written outside the output dir (-o, --out) from the directory gflow wrote it into, and no other (issue 41)', async () => {
    const { catalog, outputDir } = world();
    const mine = path.join(path.dirname(outputDir), 'mine');
    fs.mkdirSync(path.join(mine, 'sub'), { recursive: true });
    const asset = catalog.media.lookup(CLIP)[0]?.asset;
    const file = path.join(mine, 'clip.jpg');
    fs.writeFileSync(file, JPEG);
    // Recorded before written_dir existed (or by anyone but gflow's save): not served.
    catalog.localFiles.record({ assetId: asset?.id ?? -1, path: file, bytes: JPEG.length });
    expect(servableFile(catalog, CLIP, outputDir)).toBeUndefined();
    catalog.localFiles.record({
      assetId: asset?.id ?? -1,
      path: file,
      bytes: JPEG.length,
      writtenDir: fs.realpathSync(mine),
    });
    expect(servableFile(catalog, CLIP, outputDir)?.path).toBe(fs.realpathSync(file));
    const page = await galleryMediaDetail(catalog, CLIP, {
      outputDir,
      exists: (f) => fs.existsSync(f),
      tasks: queueOf(catalog),
    });
    expect(page?.files.find((f) => f.path === file)?.servable).toBe(true);
    // Swapped for a link that leads elsewhere (another directory, even one below it): refused.
    const elsewhere = path.join(mine, 'sub', 'secret.jpg');
    fs.writeFileSync(elsewhere, JPEG);
    fs.rmSync(file);
    fs.symlinkSync(elsewhere, file);
    expect(servableFile(catalog, CLIP, outputDir)).toBeUndefined();
    catalog.close();
  });
});

describe('the command that makes it again', () => {
  it('quotes every word for a POSIX shell', () => {
    expect(shellArg('plain-word_1.jpg')).toBe('plain-word_1.jpg');
    expect(shellArg("it's $HOME; rm -rf /")).toBe(`'it'\\''s $HOME; rm -rf /'`);
    expect(commandLine(['gflow', 'a b'])).toBe("gflow 'a b'");
  });

  it('rebuilds image and video commands from the stored input', () => {
    expect(recreateCommand('image', { prompt: 'a fox', model: 'nano2', aspect: '16:9', count: 2 }, 'ana')).toBe(
      "gflow image t2i 'a fox' --model nano2 --aspect 16:9 -n 2 --profile ana",
    );
    expect(recreateCommand('image', { prompt: 'same', reference_images: [FOX] }, 'ana')).toBe(
      `gflow image i2i same --ref ${FOX} --profile ana`,
    );
    expect(
      recreateCommand(
        'video',
        {
          prompt: 'go',
          mode: 'I2V',
          initial_frame: FOX,
          duration: 8,
          resolution: '720p',
          tools: [{ name: 'cd', options: { tone: 'warm' } }],
        },
        'ana',
      ),
    ).toBe(`gflow video i2v go --initial-frame ${FOX} --duration 8 --resolution 720p -t cd:tone=warm --profile ana`);
    // An extension is made again by extending its source again, never as a new clip from text.
    expect(recreateCommand('video', { prompt: 'it rains', media_id: FOX, model: 'veo_fast' }, 'ana')).toBe(
      `gflow video extend ${FOX} 'it rains' --model veo_fast --profile ana`,
    );
    expect(recreateCommand('video', { model: 'x' }, 'ana')).toBeUndefined();
    expect(recreateCommand('image', null, 'ana')).toBeUndefined();
  });
});
