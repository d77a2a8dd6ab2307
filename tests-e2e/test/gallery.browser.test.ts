// Journey: the gallery. A few sandbox generations (an image, an XSS prompt, a video from the
// image, a refused prompt, a billed clip whose download broke), then `gflow serve --sandbox` is
// looked at in real headless Chromium: counts, filters, a playing video, failures with their hint
// and recovery command, the spend-free "download again", escaping, refused paths and hosts, and a
// token daemon that only a one-time login link lets a browser into. Screenshots of every page go
// to the test report folder (GFLOW_TEST_REPORT_DIR, else test-results/) under screenshots/gallery.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { hintForCode } from '@gflow/errors';
import { type Browser, type Page, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '@gflow/testkit';
import { TEST_BROWSER_FLAGS, chromiumExecutable, screenshotsDir } from '@gflow/testkit/browser';
import type { ServeProcess } from '@gflow/testkit/cli';
import { SANDBOX_EMAIL, useSandbox } from '@gflow/testkit/sandbox';
import { writeCatalog } from './helpers/catalog.js';

const e2e = useSandbox({ seed: 'journey-gallery', signIn: true });
const shotsDir = screenshotsDir('gallery');
const XSS = `<img src=x onerror="window.__xss=1"><script>window.__xss=2</script> an owl at dusk`;
const TOKEN = 'gallery-token-0123456789abcdef';

interface Made {
  readonly status: string;
  readonly flow_media_id: string;
  readonly flow_project_id: string;
  readonly files?: string[];
}

let browser: Browser;
let serve: ServeProcess;
let origin: string;
let image: Made;
let owl: Made;
let video: Made;
let billedMediaId: string;

async function generate(args: readonly string[]): Promise<Made> {
  const run = await e2e.cli([...args, '--sandbox', '--json']);
  return json(run) as unknown as Made;
}

async function open(page: Page, url: string, shot?: string): Promise<void> {
  const response = await page.goto(`${origin}${url}`);
  expect(response?.status(), url).toBe(200);
  if (shot) {
    await page.screenshot({ path: path.join(shotsDir, `${shot}.png`), fullPage: true });
  }
}

const tiles = (page: Page) => page.locator('article.tile').count();

beforeAll(async () => {
  image = await generate(['image', 't2i', 'a red fox in fresh snow, golden hour', '--aspect', '16:9']);
  expect(image.status).toBe('completed');
  owl = await generate(['image', 't2i', XSS, '--aspect', '1:1', '--project', image.flow_project_id]);
  expect(owl.status).toBe('completed');
  video = await generate([
    'video',
    'i2v',
    'the fox trots away',
    '--initial-frame',
    image.flow_media_id,
    '--aspect',
    '16:9',
  ]);
  expect(video.status).toBe('completed');
  e2e.sim.scenario.setFailure(SANDBOX_EMAIL, 'content_policy', { times: 1 });
  const refused = await e2e.cli(['image', 't2i', 'something Flow refuses', '--sandbox', '--json']);
  expect(refused.exitCode).toBe(5);
  e2e.sim.scenario.setFailure(SANDBOX_EMAIL, 'dropped_download', { times: 10 });
  const broken = json(await e2e.cli(['image', 't2i', 'a lighthouse in fog', '--sandbox', '--json']));
  e2e.sim.scenario.clearFailures();
  expect(broken['status']).toBe('failed');
  billedMediaId = String(broken['flow_media_id']);
  expect(billedMediaId).toMatch(/^[0-9a-f-]{36}$/);
  serve = await e2e.serve(['--sandbox']);
  origin = serve.url.origin;
  browser = await chromium.launch({ executablePath: chromiumExecutable(), args: [...TEST_BROWSER_FLAGS] });
}, 420_000);

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
});

describe('journey: the gallery on gflow serve --sandbox', () => {
  it('lists the project and a grid with every catalogued media, thumbnails included', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await open(page, '/', 'projects');
    await expect.poll(() => page.locator(`[data-project-id="${image.flow_project_id}"]`).count()).toBe(1);
    await open(page, `/projects/${image.flow_project_id}`, 'project-grid');
    // The fox, the owl and the clip made from the fox (the lighthouse went into a project of its own).
    expect(await tiles(page)).toBe(3);
    await expect
      .poll(
        () =>
          page.evaluate(() =>
            [...document.querySelectorAll<HTMLImageElement>('article.tile img')].every(
              (img) => img.complete && img.naturalWidth > 0,
            ),
          ),
        { timeout: 60_000 },
      )
      .toBe(true);
    const thumb = await page.request.get(`${origin}/thumbs/${video.flow_media_id}`);
    expect(thumb.headers()['content-type']).toBe('image/jpeg');
    expect((await thumb.body()).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(fs.readdirSync(path.join(e2e.sandboxHome, 'cache', 'thumbnails')).length).toBeGreaterThanOrEqual(3);
    await page.close();
  }, 120_000);

  it('filters by kind, model and prompt words', async () => {
    const page = await browser.newPage();
    await open(page, '/media?kind=video', 'filter-videos');
    expect(await tiles(page)).toBe(1);
    expect(await page.locator('article.tile').getAttribute('data-media-id')).toBe(video.flow_media_id);
    await open(page, '/media?kind=image&q=FOX+snow');
    expect(await tiles(page)).toBe(1);
    expect(await page.locator('article.tile').getAttribute('data-media-id')).toBe(image.flow_media_id);
    // Every media, the lighthouse Flow made (and billed) but gflow could not download included.
    await open(page, '/media', 'all-media');
    expect(await tiles(page)).toBe(4);
    expect(await page.locator(`article.tile[data-media-id="${billedMediaId}"] .missing`).count()).toBe(1);
    await open(page, '/media?kind=image');
    expect(await tiles(page)).toBe(3);
    await open(page, '/media?model=veo_3_1_lite');
    expect(await tiles(page)).toBe(1);
    await open(page, '/media?since=2999-01-01');
    expect(await tiles(page)).toBe(0);
    await page.close();
  }, 60_000);

  it('plays the video on its page, with its parameters and where it came from', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await open(page, `/media/${video.flow_media_id}`);
    const clip = page.locator('video');
    await expect
      .poll(() => clip.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 20_000 })
      .toBeGreaterThan(0.3);
    expect(await clip.evaluate((v: HTMLVideoElement) => v.videoWidth)).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(shotsDir, 'video.png'), fullPage: true });
    const text = await page.locator('main').innerText();
    expect(text).toContain('the fox trots away');
    expect(text).toContain(`--initial-frame ${image.flow_media_id}`);
    // The clip was made from the fox: its input is linked, and the fox's page lists the clip.
    expect(await page.locator(`a[href="/media/${image.flow_media_id}"]`).count()).toBeGreaterThan(0);
    await open(page, `/media/${image.flow_media_id}`, 'image');
    expect(await page.locator(`a[href="/media/${video.flow_media_id}"]`).count()).toBeGreaterThan(0);
    expect(
      await page.locator('img[data-media-id]').evaluate((img: HTMLImageElement) => img.naturalWidth),
    ).toBeGreaterThan(0);
    await page.close();
  }, 60_000);

  it('copies the media id and the command that makes it again (spend-free actions)', async () => {
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    try {
      const page = await context.newPage();
      await open(page, `/media/${video.flow_media_id}`);
      const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
      await page.getByRole('button', { name: 'Copy media id' }).click();
      await expect.poll(clipboard).toBe(video.flow_media_id);
      await page.getByRole('button', { name: 'Copy command to make it again' }).click();
      await expect
        .poll(clipboard)
        .toBe(
          `gflow video i2v 'the fox trots away' --initial-frame ${image.flow_media_id} --aspect 16:9 --profile sandbox`,
        );
      expect(await page.locator('a.button', { hasText: 'Open in Flow' }).getAttribute('href')).toBe(
        `https://flow.google.com/project/${video.flow_project_id}`,
      );
    } finally {
      await context.close();
    }
  }, 60_000);

  it('shows failures with their hint, the billed-but-not-downloaded one first with its recovery command', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await open(page, '/failures', 'failures');
    const sections = page.locator('section.failure');
    expect(await sections.count()).toBe(2);
    const first = sections.first();
    expect(await first.getAttribute('class')).toContain('billed');
    expect(await first.innerText()).toContain(`gflow data download ${billedMediaId} --profile sandbox`);
    const policy = sections.nth(1);
    expect(await policy.innerText()).toContain(hintForCode('content-policy') ?? 'no hint in the table');
    expect(await policy.innerText()).toContain('not retryable');
    await page.close();
  }, 60_000);

  it('"Download again" fetches the billed media for nothing and the grid then shows it', async () => {
    const page = await browser.newPage();
    await open(page, `/media/${billedMediaId}`);
    expect(await page.locator('.stage .missing').count()).toBe(1);
    e2e.sim.received.clear();
    await page.locator('form[action$="/download"] button').click();
    // Success redirects to the media page with a notice; a failure answers the page with the error.
    await page.locator('.flash').waitFor({ timeout: 120_000 });
    expect(await page.locator('.flash').innerText()).toMatch(/no credits/);
    expect(page.url()).toContain('done=download');
    expect(
      await page.locator('img[data-media-id]').evaluate((img: HTMLImageElement) => img.naturalWidth),
    ).toBeGreaterThan(0);
    expect(e2e.sim.received.submits()).toEqual([]);
    await page.close();
  }, 150_000);

  it('renders an XSS prompt as text: no script runs, no element is injected', async () => {
    const page = await browser.newPage();
    await open(page, `/media?q=owl`, 'xss-grid');
    expect(await tiles(page)).toBe(1);
    await open(page, `/media/${owl.flow_media_id}`);
    expect(await page.locator('.prompt-text').innerText()).toBe(XSS);
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    const raw = await (await page.request.get(`${origin}/media/${owl.flow_media_id}`)).text();
    expect(raw).not.toContain('<script>window.__xss');
    expect(raw).toContain('&lt;script&gt;window.__xss=2&lt;/script&gt;');
    await page.close();
  }, 60_000);

  it('serves files only from catalogued paths inside the output directory', async () => {
    const page = await browser.newPage();
    for (const probe of [
      '/files/..%2F..%2F..%2Fetc%2Fpasswd',
      '/files/%2e%2e%2fgflow.db',
      `/files/${encodeURIComponent(path.join(e2e.sandboxHome, 'gflow.db'))}`,
      '/files/00000000-0000-4000-8000-000000000000',
    ]) {
      const response = await page.request.get(`${origin}${probe}`);
      expect(response.status(), probe).toBe(404);
      expect((await response.body()).includes(Buffer.from('SQLite format'))).toBe(false);
    }
    // A catalogued path outside the output directory (a row pointing at the catalog itself) and a
    // symlink inside it that leads out are refused too; the recorded file of the fox is served.
    const outside = path.join(e2e.sandboxHome, 'gflow.db');
    const link = path.join(e2e.outputDir, 'escape.jpg');
    fs.symlinkSync(outside, link);
    writeCatalog(e2e.dbPath, (db) => {
      const asset = db.prepare('SELECT id FROM assets WHERE flow_media_id = ?').get(owl.flow_media_id) as {
        id: number;
      };
      db.prepare('DELETE FROM local_files WHERE asset_id = ?').run(asset.id);
      const size = fs.statSync(outside).size;
      const insert = db.prepare(
        "INSERT INTO local_files (profile_name, asset_id, path, bytes, created_at) VALUES ('sandbox', ?, ?, ?, '2026-01-01T00:00:00.000Z')",
      );
      insert.run(asset.id, outside, size);
      insert.run(asset.id, link, size);
    });
    expect((await page.request.get(`${origin}/files/${owl.flow_media_id}`)).status()).toBe(404);
    const fox = await page.request.get(`${origin}/files/${image.flow_media_id}`, { headers: { range: 'bytes=0-9' } });
    expect(fox.status()).toBe(206);
    expect((await fox.body()).length).toBe(10);
    await page.close();
  }, 60_000);

  it('keeps the DNS-rebinding guard: a foreign Host header or Origin is refused', async () => {
    // fetch() may not set Host: a raw request, as a rebinding page's would arrive.
    const status = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const request = http.get(`${origin}/media`, { headers }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        request.on('error', reject);
      });
    expect(await status({})).toBe(200);
    expect(await status({ host: 'evil.example' })).toBe(403);
    expect(await status({ host: `evil.example:${serve.url.port}` })).toBe(403);
    expect(await status({ origin: 'http://evil.example' })).toBe(403);
  });

  it('shows queued and running tasks live over SSE', async () => {
    const page = await browser.newPage();
    await open(page, '/tasks', 'tasks');
    await expect.poll(() => page.locator('[data-live-status]').innerText()).toMatch(/live/);
    e2e.sim.scenario.setFailure(SANDBOX_EMAIL, 'stuck_generation', { times: 1 });
    const queued = json(await e2e.cli(['image', 't2i', 'a slow heron', '--no-wait', '--sandbox', '--json']));
    const taskId = String(queued['task_id']);
    await expect.poll(() => page.locator(`tr[data-task-id="${taskId}"]`).count(), { timeout: 60_000 }).toBe(1);
    await page.screenshot({ path: path.join(shotsDir, 'tasks-live.png'), fullPage: true });
    await e2e.cli(['task', 'cancel', taskId, '--sandbox', '--json']);
    e2e.sim.scenario.clearFailures();
    await expect.poll(() => page.locator(`tr[data-task-id="${taskId}"]`).count(), { timeout: 90_000 }).toBe(0);
    await page.close();
  }, 180_000);
});

describe('journey: the gallery with GFLOW_DAEMON_TOKEN', () => {
  it('lists a movie and plays it on its page, with its clips and its OpenTimelineIO timeline', async () => {
    const story = path.join(e2e.home, 'fox-story.yaml');
    fs.writeFileSync(
      story,
      `title: The fox's day\nscenes:\n  - media_id: ${video.flow_media_id}\n    extend: [the fox runs into the forest]\n`,
    );
    const made = json(await e2e.cli(['movie', 'run', story, '-y', '--sandbox', '--json'], { timeoutMs: 180_000 })) as {
      status: string;
      movie_id: string;
      steps: Array<{ flow_media_id: string }>;
    };
    expect(made.status).toBe('completed');
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await open(page, '/movies', 'movies');
    expect(await page.locator(`a[href="/movies/${made.movie_id}"]`).count()).toBeGreaterThan(0);
    expect(await page.locator('main').innerText()).toContain("The fox's day");
    await open(page, `/movies/${made.movie_id}`, 'movie');
    const player = page.locator('video');
    await player.evaluate((v: HTMLVideoElement) => {
      v.muted = true;
      return v.play();
    });
    await expect
      .poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 20_000 })
      .toBeGreaterThan(0.3);
    expect(await player.evaluate((v: HTMLVideoElement) => v.videoWidth)).toBeGreaterThan(0);
    expect(await page.locator('main').innerText()).toContain('the fox runs into the forest');
    const extension = made.steps[0]?.flow_media_id ?? '';
    expect(await page.locator(`a[href="/media/${extension}"]`).count()).toBeGreaterThan(0);
    const timeline = await page.request.get(`${origin}/movies/${made.movie_id}/timeline`);
    expect(timeline.status()).toBe(200);
    expect(JSON.parse(await timeline.text())).toMatchObject({ OTIO_SCHEMA: 'Timeline.1', name: "The fox's day" });
    await page.close();
  }, 240_000);

  it('refuses a browser without the cookie; a one-time login link from `gflow gallery` lets it in once', async () => {
    const secured = await e2e.serve(['--sandbox'], { env: { GFLOW_DAEMON_TOKEN: TOKEN } });
    const context = await browser.newContext();
    try {
      const at = secured.url.origin;
      const page = await context.newPage();
      expect((await page.goto(`${at}/`))?.status()).toBe(401);
      expect(await page.locator('main').innerText()).toContain('gflow gallery');
      expect((await page.request.get(`${at}/media/${image.flow_media_id}`)).status()).toBe(401);
      expect((await page.request.get(`${at}/files/${image.flow_media_id}`)).status()).toBe(401);
      const bearer = await fetch(`${at}/media`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(bearer.status).toBe(200);

      const run = await e2e.cli(['gallery', '--sandbox', '--no-open', '--port', secured.url.port], {
        env: { GFLOW_DAEMON_TOKEN: TOKEN },
      });
      expect(run.exitCode, run.stderr).toBe(0);
      const login = run.stdout.trim();
      expect(login).toMatch(new RegExp(`^${at}/login\\?code=[\\w-]+$`));
      expect(login).not.toContain(TOKEN);
      expect((await page.goto(login))?.status()).toBe(200);
      expect(new URL(page.url()).pathname).toBe('/');
      const [cookie] = await context.cookies(at);
      expect(cookie).toMatchObject({ name: 'gflow_gallery', httpOnly: true, sameSite: 'Strict' });
      expect(cookie?.value).not.toContain(TOKEN);
      expect((await page.goto(`${at}/media/${video.flow_media_id}`))?.status()).toBe(200);
      await expect
        .poll(() => page.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 20_000 })
        .toBeGreaterThan(0.3);
      const html = await page.content();
      expect(html).not.toContain(TOKEN);
      expect(html).not.toContain(cookie?.value ?? 'no cookie');
      // The link was spent: a second browser cannot use it.
      const other = await browser.newContext();
      try {
        expect((await (await other.newPage()).goto(login))?.status()).toBe(401);
      } finally {
        await other.close();
      }
    } finally {
      await context.close();
      await secured.stop();
    }
  }, 180_000);
});
