// A client killed between the submit click and the reply (issue 38): Flow has the submit, so what
// it asked for is made and billed once, whether or not anyone reads the reply. The test switch
// held_submit_reply holds the reply until the page goes away, so the kill lands between the two
// every time. And a project loaded while one of its images is still being made shows it pending,
// on each value of the variant pendingImage [U], then finished on a later load.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { VARIANT_VALUES } from '../src/index.js';
import { openProject, pickModel, pickSettings, submit, typePrompt, useSimBrowser } from './harness.js';

const rig = useSimBrowser({ seed: 'killed-client' });
const email = 'killed@example.com';
let ctx: BrowserContext;

beforeAll(async () => {
  rig.sim.scenario.createAccount({ email, credits: 1_000 });
  ctx = await rig.signedInContext(email);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

/** Submits like a person, then closes the page once Flow has the submit, before any reply. */
async function submitThenDie(projectId: string, kind: 'image' | 'video', prompt: string, model?: string) {
  const page = await ctx.newPage();
  await openProject(page, projectId);
  await pickSettings(page, [{ icon: kind === 'image' ? 'image' : 'videocam' }]);
  if (model !== undefined) await pickModel(page, model);
  const replies: string[] = [];
  page.on('response', (r) => {
    const body = decodeURIComponent(r.request().postData() ?? '');
    if (/\[\[\["(ogiZ0b|YhhmEf)"/.test(body)) replies.push(r.url());
  });
  rig.sim.scenario.setFailure(email, 'held_submit_reply', { times: 1 });
  const before = { credits: rig.sim.scenario.getCredits(email), charged: rig.sim.received.charged(email) };
  const submits = () => rig.sim.received.submits().filter((c) => c.sourcePath === `/project/${projectId}`);
  await typePrompt(page, prompt);
  await submit(page);
  await expect.poll(() => submits().length).toBe(1);
  await page.close();
  return { replies, submits: submits(), before };
}

/** Loads the project in a fresh page and reads its grid (a per-load snapshot). */
async function gridOnLoad<T>(projectId: string, read: (page: Page) => Promise<T>): Promise<T> {
  const page = await ctx.newPage();
  try {
    await openProject(page, projectId);
    return await read(page);
  } finally {
    await page.close();
  }
}

describe('a client killed after the submit click', () => {
  it('image: made and billed once though the reply was never read; a later load lists it', async () => {
    const projectId = rig.sim.scenario.createProject(email).id;
    const { replies, submits, before } = await submitThenDie(
      projectId,
      'image',
      'a kite over a dead browser',
      'Nano Banana Pro',
    );
    expect(replies).toEqual([]);
    const made = rig.sim.scenario.mediaOf(projectId);
    expect(made).toEqual([expect.objectContaining({ kind: 'image', prompt: 'a kite over a dead browser' })]);
    // Nano Banana Pro: 5 credits an image (README "Credits"), charged once.
    expect(submits[0]?.charged).toBe(5);
    expect(rig.sim.received.charged(email)).toBe(before.charged + 5);
    expect(rig.sim.scenario.getCredits(email)).toBe(before.credits - 5);
    rig.sim.scenario.setImageReady(made[0]!.id, true);
    const ids = await gridOnLoad(projectId, (page) =>
      page
        .locator('flow-image-tile img[data-media-id]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-media-id'))),
    );
    expect(ids).toEqual([made[0]!.id]);
  });

  it('video: the clip is made and billed once though the reply was never read; a later load follows it to its tile', async () => {
    const projectId = rig.sim.scenario.createProject(email).id;
    const { replies, submits, before } = await submitThenDie(
      projectId,
      'video',
      'a clip nobody waited for',
      'Veo 3.1 - Lite',
    );
    expect(replies).toEqual([]);
    const made = rig.sim.scenario.mediaOf(projectId);
    expect(made).toEqual([expect.objectContaining({ kind: 'video', prompt: 'a clip nobody waited for' })]);
    // Veo 3.1 - Lite, 8 s at 720p: 10 credits (README "Credits"), charged once.
    expect(submits[0]?.charged).toBe(10);
    expect(rig.sim.scenario.getCredits(email)).toBe(before.credits - 10);
    const tile = await gridOnLoad(projectId, (page) =>
      page.locator(`flow-video-tile img[data-media-id="${made[0]!.id}"]`).waitFor({ timeout: 30_000 }),
    );
    expect(tile).toBeUndefined();
  });
});

describe('pendingImage [U]: a project loaded while an image is being made', () => {
  it.each(VARIANT_VALUES.pendingImage)('%s', async (variant) => {
    rig.sim.scenario.setVariants({ pendingImage: variant });
    try {
      const projectId = rig.sim.scenario.createProject(email).id;
      await submitThenDie(projectId, 'image', `pending as ${variant}`);
      const id = rig.sim.scenario.mediaOf(projectId)[0]!.id;
      rig.sim.scenario.setImageReady(id, false);
      const read = (page: Page) =>
        page.evaluate(() => ({
          pending: Array.from(document.querySelectorAll('flow-pending-tile')).map((t) =>
            t.getAttribute('data-media-id'),
          ),
          images: document.querySelectorAll('flow-image-tile').length,
        }));
      const pending = { tile: [null], 'tile-media-id': [id], unlisted: [] }[variant];
      expect(await gridOnLoad(projectId, read)).toEqual({ pending, images: 0 });
      rig.sim.scenario.setImageReady(id, true);
      expect(await gridOnLoad(projectId, read)).toEqual({ pending: [], images: 1 });
    } finally {
      rig.sim.scenario.resetVariants();
    }
  });
});
