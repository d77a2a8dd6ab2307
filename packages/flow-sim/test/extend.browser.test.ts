// The scene editor's extend, one contract test per fact of flow-captures.md §10 ("§10 …" in each
// name: measured live 2026-09-19), then one per value of the switches for what §10 leaves [U]
// (src/sceneVariants.ts). Plain playwright-core in system Chromium, no gflow driver: a person's
// clicks, the page's own `fZytfe`, the simulator's replies.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page, Request } from 'playwright-core';
import {
  extendInScene,
  openProject,
  openSceneWithClip,
  pickSettings,
  sceneMenuEntries,
  submit,
  typePrompt,
  useSimBrowser,
} from './harness.js';

const rig = useSimBrowser({ seed: 'extend-contract' });

afterEach(() => {
  rig.sim.scenario.resetVariants();
  rig.sim.scenario.clearFailures();
  rig.sim.scenario.setLocale('en-US');
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// One account, project and 8 s 16:9 source clip for the file (each test opens its own scene).
const email = 'extend@example.com';
let projectId = '';
let source = '';
let ctx: BrowserContext;
let page: Page;

beforeAll(async () => {
  rig.sim.scenario.createAccount({ email, credits: 100_000, uploadTermsAccepted: true });
  projectId = rig.sim.scenario.createProject(email).id;
  ({ ctx, page } = await rig.signedInPage(email));
  source = await clip([]);
}, 60_000);

afterAll(async () => {
  await ctx.close();
});

/** The id of the first media of the project not in `before`, once Flow has made one. */
async function newMedia(project: string, before: ReadonlySet<string>): Promise<string> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const made = rig.sim.scenario.mediaOf(project).find((m) => !before.has(m.id));
    if (made !== undefined) return made.id;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('no clip was made');
}

/** One finished clip made through the composer like a person. */
async function clip(picks: { icon?: string; token?: string }[]): Promise<string> {
  await openProject(page, projectId);
  const before = new Set(rig.sim.scenario.mediaOf(projectId).map((m) => m.id));
  if (picks.length > 0) await pickSettings(page, picks);
  await typePrompt(page, 'a slow pan to the right over the harbour');
  await submit(page);
  // The clip Flow made (its state, not a count of tiles a loading page may not have drawn yet),
  // then its own finished tile.
  const made = await newMedia(projectId, before);
  await page.locator(`flow-video-tile[data-media-id="${made}"]`).waitFor({ timeout: 60_000 });
  return made;
}

/** The project loaded afresh (the variants are read at load; a tile drawn at load carries its /asb/ token), then a scene holding `clipId`. */
async function sceneWith(clipId: string): Promise<string> {
  await openProject(page, projectId);
  return openSceneWithClip(page, clipId);
}

/** The page's `fZytfe` request, as it left the browser. */
function nextExtendRequest(page: Page): Promise<Request> {
  return page.waitForRequest((r) => r.url().includes('/data/batchexecute') && (r.postData() ?? '').includes('fZytfe'));
}

function innerOf(request: Request): unknown[] {
  const fReq = JSON.parse(new URLSearchParams(request.postData() ?? '').get('f.req') ?? '') as unknown[][][];
  const call = fReq[0]?.[0] ?? [];
  expect(call[0]).toBe('fZytfe');
  expect(call[3]).toBe('generic');
  return JSON.parse(String(call[1])) as unknown[];
}

/** A clip made by an extension, once the page shows it done. */
async function extensionOf(projectId: string, before: Set<string>, page: Page): Promise<string> {
  await page.locator('.timeline-clip:not(.pending), [role=listitem].scene-shot:not(.generating)').nth(1).waitFor();
  const made = rig.sim.scenario.mediaOf(projectId).find((m) => !before.has(m.id));
  if (made === undefined) throw new Error('no extension was made');
  return made.id;
}

/** Frames and seconds of an MP4, read from its sample table and media header. */
function mp4Timing(bytes: Buffer): { frames: number; seconds: number } {
  const find = (type: string): number => {
    const at = bytes.indexOf(Buffer.from(type, 'latin1'));
    if (at < 4) throw new Error(`no ${type} box`);
    return at + 4;
  };
  const mdhd = find('mdhd');
  const stsz = find('stsz');
  return {
    frames: bytes.readUInt32BE(stsz + 8),
    seconds: bytes.readUInt32BE(mdhd + 16) / bytes.readUInt32BE(mdhd + 12),
  };
}

/** Bytes fetched by the page (Playwright's own request API runs in Node, outside the simulator's host mapping). */
async function fetchInPage(page: Page, url: string): Promise<Buffer> {
  const b64 = await page.evaluate(async (u) => {
    const bytes = new Uint8Array(await (await fetch(u)).arrayBuffer());
    let bin = '';
    for (const b of bytes) bin += String.fromCharCode(b);
    return btoa(bin);
  }, url);
  return Buffer.from(b64, 'base64');
}

/** The clip at a signed URL, decoded by Chromium's own H.264 decoder: its duration and size. */
async function decoded(page: Page, url: string): Promise<{ duration: number; width: number; height: number }> {
  return page.evaluate(async (src) => {
    const res = await fetch(src);
    const blob = URL.createObjectURL(new Blob([await res.arrayBuffer()], { type: 'video/mp4' }));
    const video = document.createElement('video');
    video.muted = true;
    await new Promise((resolve, reject) => {
      video.addEventListener('loadedmetadata', resolve, { once: true });
      video.addEventListener('error', () => reject(new Error('undecodable')), { once: true });
      video.src = blob;
    });
    return { duration: video.duration, width: video.videoWidth, height: video.videoHeight };
  }, url);
}

describe('§10 the scene editor and fZytfe (measured live 2026-09-19)', () => {
  it('§10 where: the scene editor lives at /project/<pid>/scene/<sid>; its timeline + offers "Extend (Veo 3.1 - Lite)"', async () => {
    const sceneId = await sceneWith(source);
    expect(new URL(page.url()).pathname).toBe(`/project/${projectId}/scene/${sceneId}`);
    expect(rig.sim.scenario.sceneClips(sceneId)).toEqual([source]);
    expect(await sceneMenuEntries(page)).toEqual(['Extend (Veo 3.1 - Lite)']);
  });

  it('§10 submit: the page sends fZytfe with the source-path, the captured inner shape, the WORKFLOW id, the last second at 24 fps, 16:9 = 2, tool 22 and the reCAPTCHA slot', async () => {
    const sceneId = await sceneWith(source);
    const sent = nextExtendRequest(page);
    await extendInScene(page, 'the camera keeps moving');
    const request = await sent;
    const url = new URL(request.url());
    expect(url.pathname).toBe('/_/AiSandboxAngularFrontend/data/batchexecute');
    expect(url.searchParams.get('rpcids')).toBe('fZytfe');
    expect(url.searchParams.get('source-path')).toBe(`/project/${projectId}/scene/${sceneId}`);
    expect(new URLSearchParams(request.postData() ?? '').get('at')).toMatch(/\S/);
    const [requests, context, tail] = innerOf(request) as [unknown[][], unknown[], unknown[]];
    expect(requests).toHaveLength(1);
    const [src, prompt, key, aspect, fifth, sceneSlot] = requests[0] as unknown[];
    // The source slot holds the clip's workflow id, never its media id; an 8 s clip's last second is [169, 192].
    expect(src).toEqual([null, rig.sim.scenario.clipOf(source).workflowId, 169, 192]);
    expect(prompt).toEqual([null, null, [[['the camera keeps moving']]]]);
    expect(typeof key).toBe('string');
    expect(aspect).toBe(2);
    expect(fifth).toBeNull();
    expect((sceneSlot as unknown[])[0]).toBe(sceneId);
    expect((sceneSlot as unknown[]).slice(1, 4)).toEqual([null, null, null]);
    expect((sceneSlot as unknown[]).slice(4).every((u) => UUID.test(String(u)))).toBe(true);
    expect(context.slice(0, 6)).toEqual([null, 22, null, null, null, projectId]);
    const [token, one] = context[10] as [string, number];
    expect(token.length).toBeGreaterThan(100);
    expect(one).toBe(1);
    expect(tail[0]).toMatch(UUID);
    expect(tail.slice(1)).toEqual([2, null, [sceneId, 2]]);
  });

  it('§10 frame window from the duration, ASPECT_IDX 1 = 9:16: a 4 s 9:16 clip sends [73, 96] and 1', async () => {
    const portrait = await clip([{ icon: 'crop_9_16' }, { token: '4' }]);
    await sceneWith(portrait);
    const sent = nextExtendRequest(page);
    await extendInScene(page, 'and on it goes');
    const [requests] = innerOf(await sent) as [unknown[][]];
    const request = requests[0] as unknown[];
    expect((request[0] as unknown[]).slice(2)).toEqual([73, 96]);
    expect(request[3]).toBe(1);
  });

  it('§10 polling and result: as29s answers the bare "<workflow_id>" while the job runs, then the record with https://flow-content.google/video/<workflow_id>?Expires=… at [7][0][8]; jwpduf shows [3] and the size without a URL; the result is a separate, real 7 s H.264 clip that starts in the source\'s last second', async () => {
    await sceneWith(source);
    const before = new Set(rig.sim.scenario.mediaOf(projectId).map((m) => m.id));
    const fetches: unknown[] = [];
    const polls: unknown[] = [];
    page.on('response', (r) => {
      const body = r.request().postData() ?? '';
      const into = body.includes('as29s') ? fetches : body.includes('jwpduf') ? polls : null;
      if (into !== null)
        void r.text().then(
          (text) => into.push(...payloads(text)),
          () => undefined,
        );
    });
    await extendInScene(page, 'the camera keeps moving');
    const extension = await extensionOf(projectId, before, page);
    const { workflowId } = rig.sim.scenario.clipOf(extension);
    expect(fetches).toContain(workflowId);
    // The bare id comes first (running), the records after it (done: the URL once it exists, §4).
    const urlOf = (record: unknown): string =>
      Array.isArray(record) && record[0] === workflowId ? String(((record[7] as unknown[][])[0] as unknown[])[8]) : '';
    await expect
      .poll(() => urlOf(fetches.at(-1)))
      .toMatch(new RegExp(`^https://flow-content\\.google/video/${workflowId}\\?Expires=`));
    const url = urlOf(fetches.at(-1));
    const firstRecord = fetches.findIndex((f) => Array.isArray(f) && f[0] === workflowId);
    expect(fetches.indexOf(workflowId)).toBeGreaterThanOrEqual(0);
    expect(fetches.indexOf(workflowId)).toBeLessThan(firstRecord);
    const done = polls
      .flatMap((p) => ((p as unknown[])[2] as unknown[][]) ?? [])
      .map((w) => w[0] as unknown[])
      .filter((r) => r[2] === extension && ((r[5] as unknown[])[8] as number[])[0] === 3);
    expect(done.length).toBeGreaterThan(0);
    for (const r of done) {
      expect((r[5] as unknown[])[13]).toBeGreaterThan(1000);
      expect(((r[7] as unknown[][])[0] as unknown[])[8]).toBeNull();
    }
    const bytes = await fetchInPage(page, url);
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(mp4Timing(bytes)).toEqual({ frames: 168, seconds: 7 });
    expect(await decoded(page, url)).toMatchObject({ width: 1280, height: 720 });
    expect((await decoded(page, url)).duration).toBeCloseTo(7, 1);
    expect(extension).not.toBe(source);
    // It starts at the first frame of the source's last second (0-based 168 of 192): it overlaps 1 s.
    expect(rig.sim.scenario.clipOf(extension).extendsFrom).toEqual({ mediaId: source, fromFrame: 168 });
  });

  it('§10 a MEDIA id in the source slot is accepted, answered with an echo record, billed, and never scheduled', async () => {
    await sceneWith(source);
    // wrong_submit_body (a test switch): the page puts the clip's media id where its workflow id belongs.
    rig.sim.scenario.setFailure(email, 'wrong_submit_body');
    await page.reload();
    const credits = rig.sim.scenario.getCredits(email);
    const sent = nextExtendRequest(page);
    const replied = page.waitForResponse((r) => (r.request().postData() ?? '').includes('fZytfe'));
    await extendInScene(page, 'the camera keeps moving');
    const [requests] = innerOf(await sent) as [unknown[][]];
    expect(((requests[0] as unknown[])[0] as unknown[])[1]).toBe(source);
    const reply = payloads(await (await replied).text())[0] as unknown[];
    const echo = ((reply[3] as unknown[][])[0] as unknown[])[0] as unknown[];
    expect(echo[1]).toBe(projectId);
    expect(((echo[5] as unknown[])[8] as number[])[0]).toBe(6);
    expect(rig.sim.scenario.getCredits(email)).toBeLessThan(credits);
    // Never scheduled: the page's polls keep answering "submitted" and the bare workflow id.
    const asked = rig.sim.received.calls('as29s').length;
    await expect.poll(() => rig.sim.received.calls('as29s').length, { timeout: 10_000 }).toBeGreaterThan(asked + 5);
    const last = rig.sim.received.calls('as29s').at(-1);
    expect(last?.inner).toBe(JSON.stringify([String(echo[0])]));
    expect(rig.sim.scenario.clipOf(String(echo[2])).extendsFrom?.mediaId).toBe(source);
  });
});

describe('[U] variants of the scene editor and its extend (README "Evidence and variants")', () => {
  it('sceneEditor=storyboard: a list of shots, an add_circle +, a dialog composer; the same fZytfe', async () => {
    rig.sim.scenario.setVariants({ sceneEditor: 'storyboard' });
    await sceneWith(source);
    expect(await page.locator('[role=list].scene-shots [role=listitem]').count()).toBe(1);
    expect(await page.locator('main button:has(mat-icon:text-is("add_circle"))').count()).toBe(1);
    const sent = nextExtendRequest(page);
    await extendInScene(page, 'onwards');
    expect(await page.locator('[role=dialog] textarea').count()).toBe(0);
    const [requests] = innerOf(await sent) as [unknown[][]];
    expect(((requests[0] as unknown[])[0] as unknown[])[1]).toBe(rig.sim.scenario.clipOf(source).workflowId);
  });

  it('sceneEntry=new-scene: no scene button in the detail view; New scene is empty and "Add clip" puts the clip on it', async () => {
    rig.sim.scenario.setVariants({ sceneEntry: 'new-scene' });
    await openProject(page, projectId);
    await page.locator(`flow-video-tile[data-media-id="${source}"]`).click();
    await page.locator('flow-asset-detail-view').waitFor();
    expect(await page.locator('flow-asset-detail-view button:has(mat-icon:text-is("movie"))').count()).toBe(0);
    await page.keyboard.press('Escape');
    const sceneId = await openSceneWithClip(page, source);
    expect(rig.sim.scenario.sceneClips(sceneId)).toEqual([source]);
    expect(await sceneMenuEntries(page)).toEqual(['Extend (Veo 3.1 - Lite)', 'Add clip']);
  });

  it('extendWords=model-first and the locale: the model name stays, the words change', async () => {
    rig.sim.scenario.setVariants({ extendWords: 'model-first' });
    rig.sim.scenario.setLocale('de-DE');
    await sceneWith(source);
    expect(await sceneMenuEntries(page)).toEqual(['Veo 3.1 - Lite · Verlängern']);
  });

  it('extendModels=veo-all: Lite, Fast and Quality, each sending its own key and billed its own cost', async () => {
    rig.sim.scenario.setVariants({ extendModels: 'veo-all' });
    await sceneWith(source);
    expect(await sceneMenuEntries(page)).toEqual([
      'Extend (Veo 3.1 - Lite)',
      'Extend (Veo 3.1 - Fast)',
      'Extend (Veo 3.1 - Quality)',
    ]);
    await page.keyboard.press('Escape');
    const credits = rig.sim.scenario.getCredits(email);
    const sent = nextExtendRequest(page);
    await extendInScene(page, 'faster', 'Veo 3.1 - Fast');
    const [requests] = innerOf(await sent) as [unknown[][]];
    expect((requests[0] as unknown[])[2]).toContain('fast');
    await expect.poll(() => credits - rig.sim.scenario.getCredits(email)).toBe(18);
  });

  it.each([
    [{ extendLength: '8' }, 192, 168],
    [{ extendOverlap: '0' }, 168, 192],
    [{ extendOverlap: '0.5' }, 168, 180],
  ] as const)('%o: the extension has %i frames and starts at source frame %i', async (variants, frames, from) => {
    rig.sim.scenario.setVariants(variants);
    await sceneWith(source);
    const before = new Set(rig.sim.scenario.mediaOf(projectId).map((m) => m.id));
    await extendInScene(page, 'more');
    const extension = await extensionOf(projectId, before, page);
    const info = rig.sim.scenario.clipOf(extension);
    expect(info.seconds * 24).toBe(frames);
    expect(info.extendsFrom).toEqual({ mediaId: source, fromFrame: from });
  });

  it('extendReply=workflow-id: the reply is only ["<workflow_id>"]; the page follows it on as29s', async () => {
    rig.sim.scenario.setVariants({ extendReply: 'workflow-id' });
    await sceneWith(source);
    const before = new Set(rig.sim.scenario.mediaOf(projectId).map((m) => m.id));
    const replied = page.waitForResponse((r) => (r.request().postData() ?? '').includes('fZytfe'));
    await extendInScene(page, 'more');
    const reply = payloads(await (await replied).text())[0] as unknown[];
    const extension = await extensionOf(projectId, before, page);
    expect(reply).toEqual([rig.sim.scenario.clipOf(extension).workflowId]);
  });
});

/** The `wrb.fr` payloads of a batchexecute reply body. */
function payloads(text: string): unknown[] {
  const out: unknown[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('[')) continue;
    for (const item of JSON.parse(line) as unknown[][])
      if (item[0] === 'wrb.fr' && typeof item[2] === 'string') out.push(JSON.parse(item[2]));
  }
  return out;
}
