// Issue 41: after normal use everything still adds up. Twenty sandbox commands as a new user types
// them (images, videos, upscales, a chain, a batch, -o and --out, a download, an upload, a queued
// job followed with the command gflow printed, a rename, a sync) end with `gflow doctor` exit 0:
// every asset named, every project titled, and every file visible — and every video playing — in
// the gallery (`gflow serve --sandbox` in real Chromium). Then: two saved characters of one name in
// a project that has media refuse `@Name` (exit 11, both ids, nothing submitted), a dry run of
// several prompts says `estimated`, and malformed ids are exit 2 before any browser work. The real
// binary, SQLite and Chromium against the simulator.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePng } from '@gflow/flow-sim';
import { json, waitFor } from '@gflow/testkit';
import { TEST_BROWSER_FLAGS, chromiumExecutable } from '@gflow/testkit/browser';
import { GFLOW_BIN, type ServeProcess, cliEnv } from '@gflow/testkit/cli';
import { useSandbox } from '@gflow/testkit/sandbox';
import { catalogRows } from '../helpers/catalog.js';

const e2e = useSandbox({ seed: 'issue-41-adds-up', signIn: true });

type Json = Record<string, unknown>;

/** The commands run, in order, with what each printed: the journey's log when it fails. */
const ran: Array<{ args: readonly string[]; exitCode: number }> = [];

async function gflow(args: readonly string[], expectExit = 0): Promise<Json> {
  const run = await e2e.cli([...args, '--sandbox', '--json']);
  ran.push({ args, exitCode: run.exitCode });
  expect(run.exitCode, `gflow ${args.join(' ')}\n${run.stderr}\n${run.stdout}`).toBe(expectExit);
  return json(run) as Json;
}

const media = (r: Json): string => String(r['flow_media_id']);

let work: string;
let project: string;
let fox: string;
let clip: string;
let browser: Browser;
let serve: ServeProcess;

beforeAll(async () => {
  work = path.join(e2e.home, 'work');
  fs.mkdirSync(path.join(work, 'mine'), { recursive: true });
  fs.mkdirSync(path.join(work, 'flat'), { recursive: true });
  fs.mkdirSync(path.join(work, 'downloads'), { recursive: true });
  fs.writeFileSync(path.join(work, 'sketch.png'), makePng(96, 64, 'a sketch'));
  fs.writeFileSync(path.join(work, 'story.jsonl'), '{"prompt":"a kite lifts"}\n{"prompt":"it climbs into cloud"}\n');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
});

describe('issue 41: twenty sandbox commands later, everything adds up', () => {
  it('images, videos, upscales, a chain, a batch, -o, --out, a download, an upload, a queued job, a rename, a sync', async () => {
    // 1–3: images — a new project, -o outside the output dir, --out flat.
    const first = await gflow(['image', 't2i', 'a red fox in fresh snow', '--aspect', '16:9']);
    project = String(first['flow_project_id']);
    fox = media(first);
    expect(first['flow_project_title']).toBe('a red fox in fresh snow');
    const hare = await gflow([
      'image',
      't2i',
      'a hare at dusk',
      '--project',
      project,
      '-o',
      path.join(work, 'mine', 'hare.png'),
    ]);
    expect(String((hare['files'] as string[])[0])).toContain(path.join(work, 'mine'));
    await gflow(['image', 't2i', 'two owls', '-n', '2', '--project', project, '--out', path.join(work, 'flat')]);
    // 4–5: videos — text, and from the fox (in place).
    clip = media(await gflow(['video', 't2v', 'waves roll over the pier', '--project', project, '--aspect', '16:9']));
    await gflow(['video', 'i2v', 'the fox trots away', '--initial-frame', fox, '--aspect', '16:9']);
    // 6–7: upscales (free).
    await gflow(['image', 'upscale', fox, '--scale', '2k']);
    await gflow(['video', 'upscale', clip, '--scale', '1080p']);
    // 8: a batch (two prompts, one new project); 9: a chain.
    const batch = await gflow(['image', 't2i', 'a blue kite', 'a green kite']);
    expect(batch['status']).toBe('completed');
    await gflow(['video', 'chain', path.join(work, 'story.jsonl'), '-y']);
    // 10: download again, flat into a directory of the user's.
    await gflow(['data', 'download', clip, '--out', path.join(work, 'downloads')]);
    // 11: an upload, its size said; 12: an image from the fox, attached in place.
    const upload = await gflow(['image', 'upload', path.join(work, 'sketch.png'), '--project', project]);
    expect(upload['bytes']).toBe(fs.statSync(path.join(work, 'sketch.png')).size);
    const i2i = await gflow(['image', 'i2i', 'the fox in watercolour', '--ref', fox, '--project', project]);
    expect(i2i['reference_uploaded']).toBeUndefined();
    // 13–14: a project of its own, and a rename.
    await gflow(['project', 'create', '--title', 'Second thoughts']);
    await gflow(['project', 'rename', project, 'Foxes and friends']);
    // 15–16: a queued job, followed with the very command gflow printed.
    const queued = await e2e.cli(['image', 't2i', 'a slow tortoise', '--project', project, '--no-wait', '--sandbox']);
    ran.push({ args: ['image', 't2i', '…', '--no-wait'], exitCode: queued.exitCode });
    expect(queued.exitCode, queued.stderr).toBe(0);
    const follow = /'gflow (task wait [^']+)'/.exec(queued.stdout)?.[1];
    expect(follow, queued.stdout).toMatch(/^task wait \S+ --sandbox$/);
    const waited = await e2e.cli((follow as string).split(' '));
    ran.push({ args: (follow as string).split(' '), exitCode: waited.exitCode });
    expect(waited.exitCode, waited.stderr).toBe(0);
    // 17–18: what the catalog lists.
    const projects = await gflow(['project', 'list']);
    expect(JSON.stringify(projects)).toContain('Foxes and friends');
    const listed = await e2e.cli(['data', 'list', 'images', '--sandbox', '--json']);
    ran.push({ args: ['data', 'list', 'images'], exitCode: listed.exitCode });
    // JSON Lines, one image a line, each with its name.
    const images = listed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Json);
    expect(images.every((row) => typeof row['display_name'] === 'string' && row['display_name'] !== '')).toBe(true);
    // 19: sync (nothing left to fill: every name and title came with the runs).
    const sync = await gflow(['data', 'sync']);
    expect(sync).toMatchObject({ status: 'ok', unnamed: 0 });
    // 20: the doctor finds nothing.
    const doctor = await e2e.cli(['doctor', '--sandbox', '--json']);
    ran.push({ args: ['doctor'], exitCode: doctor.exitCode });
    expect(doctor.exitCode, doctor.stdout).toBe(0);
    expect(ran.length).toBe(20);
  }, 900_000);

  it('every asset is named and every project titled in the catalog', () => {
    const unnamed = catalogRows(
      e2e.dbPath,
      "SELECT flow_media_id FROM assets WHERE display_name IS NULL OR display_name = ''",
    );
    expect(unnamed).toEqual([]);
    const untitled = catalogRows(e2e.dbPath, "SELECT flow_project_id FROM projects WHERE title IS NULL OR title = ''");
    expect(untitled).toEqual([]);
    const titles = catalogRows(e2e.dbPath, 'SELECT title FROM projects').map((r) => r['title']);
    expect(titles).toEqual(expect.arrayContaining(['Foxes and friends', 'Second thoughts']));
  });

  it('every catalogued file is visible in the gallery, and every video plays', async () => {
    serve = await e2e.serve(['--sandbox']);
    browser = await chromium.launch({ executablePath: chromiumExecutable(), args: [...TEST_BROWSER_FLAGS] });
    const page = await browser.newPage();
    const origin = serve.url.origin;
    await page.goto(`${origin}/`);
    expect(await page.locator('main').innerText()).not.toContain('Untitled project');
    const assets = catalogRows(
      e2e.dbPath,
      'SELECT DISTINCT a.flow_media_id AS id, a.kind FROM assets a JOIN local_files f ON f.asset_id = a.id',
    );
    expect(assets.length).toBeGreaterThanOrEqual(12);
    for (const { id, kind } of assets as Array<{ id: string; kind: string }>) {
      const file = await page.request.get(`${origin}/files/${id}`);
      expect(file.status(), `/files/${id}`).toBe(200);
      await page.goto(`${origin}/media/${id}`);
      expect(await page.locator('main').innerText(), id).not.toMatch(/may be missing/i);
      if (kind === 'video') {
        const video = page.locator('video').first();
        await expect
          .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 20_000 })
          .toBeGreaterThan(0.2);
      } else {
        const img = page.locator('main img').first();
        await expect
          .poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0), { timeout: 20_000 })
          .toBe(true);
      }
    }
    await page.close();
  }, 300_000);

  it('two saved characters of one name in a project with media: exit 11 naming both, nothing submitted', async () => {
    const first = e2e.sim.scenario.addCharacter(project, { displayName: 'Mira' });
    const second = e2e.sim.scenario.addCharacter(project, { displayName: 'Mira' });
    const submits = e2e.sim.received.submits().length;
    const run = await e2e.cli([
      'image',
      't2i',
      '@Mira waves from the pier',
      '--project',
      project,
      '--sandbox',
      '--json',
    ]);
    expect(run.exitCode, run.stderr).toBe(11);
    const error = (json(run) as { error: { detail: string } }).error;
    expect(error.detail).toContain(first.entityId);
    expect(error.detail).toContain(second.entityId);
    expect(e2e.sim.received.submits().length).toBe(submits);
    // One of that name: attached, and the result says so.
    const lone = e2e.sim.scenario.addCharacter(project, { displayName: 'Bruno' });
    const named = await gflow(['image', 't2i', '@Bruno on a bench', '--project', project]);
    expect(named['characters']).toEqual([{ id: lone.entityId, name: 'Bruno' }]);
    expect(e2e.sim.received.calls('ogiZ0b').at(-1)?.inner ?? '').toContain(lone.entityId);
  }, 240_000);

  it('on a terminal (a pseudo-terminal reading the screen): the timer moves every second, Flow says words, never numbers', async () => {
    // Flow's URL gap (status 3, no URL yet) held open until the line has ticked through three
    // seconds of it: a line frozen for that wait (the bug) never gets there, whatever the pace.
    e2e.sim.scenario.holdVideoUrls();
    const screen: string[] = [];
    const command = [
      process.execPath,
      GFLOW_BIN,
      'video',
      't2v',
      'a gull circles the mast',
      '--project',
      project,
      '--sandbox',
    ]
      .map((word) => `'${word.replace(/'/g, `'\\''`)}'`)
      .join(' ');
    // util-linux script(1): the command on a pseudo-terminal, its screen on our pipe.
    const child = spawn('script', ['-q', '-f', '-e', '-c', command, '/dev/null'], {
      env: cliEnv(e2e.home, e2e.env({ TERM: 'xterm', COLUMNS: '160' })),
      cwd: e2e.home,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => screen.push(chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Each redraw is `\r\x1b[2K<line>`; the line ends with the seconds elapsed.
    const secondsOf = (lines: string[]): number[] =>
      lines
        .map((line) => /\s(\d+)s\s*$/.exec(line.split('\n')[0] ?? '')?.[1])
        .filter((s): s is string => s !== undefined)
        .map(Number);
    const redraws = (): string[] => screen.join('').split('\r\u001b[2K');
    try {
      await waitFor(
        'the line to tick through three seconds of Flow’s URL gap',
        () => (new Set(secondsOf(redraws().filter((l) => l.includes('done in Flow')))).size >= 3 ? true : undefined),
        180_000,
        100,
      );
    } finally {
      e2e.sim.scenario.releaseVideoUrls();
    }
    const exitCode = await exited;
    const text = screen.join('');
    expect(exitCode, text).toBe(0);
    const distinct = [...new Set(secondsOf(redraws()))];
    expect(distinct.length, text).toBeGreaterThanOrEqual(4);
    // The seconds only go forward (how far apart two redraws fall is the machine's pace).
    expect(distinct, text).toEqual([...distinct].sort((a, b) => a - b));
    // Flow's status in words; no raw status code ([6], [2], [3]) and no byte bar of a count.
    expect(text).not.toMatch(/\[\d+\]/);
    expect(text).not.toMatch(/\d B\/\d+ B/);
    expect(text).toMatch(/✓ Made 1 video in project/);
  }, 240_000);

  it('a dry run of several prompts says estimated, as one prompt does, and submits nothing', async () => {
    const submits = e2e.sim.received.submits().length;
    const one = await gflow(['image', 't2i', 'a quiet harbour', '--project', project, '--dry-run']);
    const many = await gflow(['image', 't2i', 'a quiet harbour', 'a busy harbour', '--project', project, '--dry-run']);
    expect(one['status']).toBe('estimated');
    expect(many['status']).toBe('estimated');
    expect((many['items'] as Json[]).map((item) => item['status'])).toEqual(['estimated', 'estimated']);
    expect(e2e.sim.received.submits().length).toBe(submits);
  }, 240_000);

  it('a malformed id is exit 2 before any browser work', async () => {
    const pages = e2e.sim.received.pages().length;
    for (const args of [
      ['image', 't2i', 'a cat', '--project', 'abc'],
      ['image', 'upscale', 'bogus', '--scale', '2k'],
      ['data', 'download', 'not-an-id'],
    ]) {
      const run = await e2e.cli([...args, '--sandbox', '--json']);
      expect(run.exitCode, `${args.join(' ')}: ${run.stdout}`).toBe(2);
    }
    expect(e2e.sim.received.pages().length).toBe(pages);
  }, 120_000);
});
