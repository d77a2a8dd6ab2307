import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { exitCodeOf } from '@gflow/errors';
import { readImageSize } from '@gflow/flow-sim';
import { listCharacters, showCharacter } from '../src/characters/listCharacters.js';
import { readBrief } from '../src/instructions/readBrief.js';
import { changeBrief } from '../src/instructions/writeBrief.js';
import { createProject } from '../src/projects/createProject.js';
import { downloadMediaById, findMediaUrl } from '../src/projects/findMediaUrl.js';
import { renameProject } from '../src/projects/renameProject.js';
import { upscaleImage } from '../src/upscale/upscaleImage.js';
import { upscaleVideo } from '../src/upscale/upscaleVideo.js';
import { makeMedia, useSimBrowser } from '@gflow/testkit/browser';

const PRO = 'pro@example.com';
const ULTRA = 'ultra@example.com';
const h = useSimBrowser();
let pro: BrowserContext;
let ultra: BrowserContext;
let projectId = '';
let imageId = '';
let videoId = '';

beforeAll(async () => {
  h.sim.scenario.createAccount({ email: PRO, password: 'pw', credits: 500, tier: 'pro', uploadTermsAccepted: true });
  h.sim.scenario.createAccount({
    email: ULTRA,
    password: 'pw',
    credits: 500,
    tier: 'ultra',
    uploadTermsAccepted: true,
  });
  pro = await h.signedInContext(PRO, 'pw');
  ultra = await h.signedInContext(ULTRA, 'pw');
  projectId = h.sim.scenario.createProject(PRO, {
    title: 'Seeded',
    instructions: ['Keep it noir.', 'Golden hour light.'],
  }).id;
  h.sim.scenario.addCharacter(projectId, { displayName: 'Mira', voice: 'kore' });
  h.sim.scenario.addCharacter(projectId, { displayName: 'Juno' });
  h.sim.scenario.addCharacter(projectId, { displayName: 'Juno' });
  imageId = await makeMedia(pro, projectId, 'image', 'a lighthouse at dusk');
  videoId = await makeMedia(pro, projectId, 'video', 'waves on a rocky shore');
});
afterAll(async () => {
  await pro?.close().catch(() => undefined);
  await ultra?.close().catch(() => undefined);
});

describe('projects', () => {
  it('creates a project through the gallery and titles it, then renames it', async () => {
    const created = await createProject(pro, { title: 'Storyboard A' });
    expect(created.title).toBe('Storyboard A');
    expect(h.sim.scenario.projectsOf(PRO)).toContainEqual({ id: created.project_id, title: 'Storyboard A' });
    expect(h.sim.received.calls('jHPbke').length).toBeGreaterThan(0);
    const renamed = await renameProject(pro, { projectId: created.project_id, title: 'Storyboard B' });
    expect(renamed).toEqual({ project_id: created.project_id, title: 'Storyboard B' });
    expect(h.sim.scenario.projectsOf(PRO)).toContainEqual({ id: created.project_id, title: 'Storyboard B' });
  });

  it("refuses another account's project", async () => {
    const error = await renameProject(ultra, { projectId, title: 'Mine now' }).catch((e: unknown) => e);
    expect(exitCodeOf(error)).toBe(11);
    expect(h.sim.scenario.projectsOf(PRO)).toContainEqual({ id: projectId, title: 'Seeded' });
  });
});

describe('characters', () => {
  it("lists the project's characters from the page's own search reply", async () => {
    const list = await listCharacters(pro, { projectId });
    expect(list.map((c) => c.display_name).sort()).toEqual(['Juno', 'Juno', 'Mira']);
    expect(list.every((c) => c.project_id === projectId && /^[0-9a-f-]{36}$/.test(c.entity_id))).toBe(true);
  });

  it('shows one by name, and refuses an ambiguous name with its candidates', async () => {
    const mira = await showCharacter(pro, { projectId, selector: { name: 'Mira' } });
    expect(mira.display_name).toBe('Mira');
    const error = await showCharacter(pro, { projectId, selector: { name: 'Juno' } }).catch((e: unknown) => e);
    expect(exitCodeOf(error)).toBe(11);
  });
});

describe('instruction brief', () => {
  it('reads the seeded cards, and an added card is written through the panel and read back', async () => {
    const brief = await readBrief(pro, { projectId });
    expect(brief.enabled).toBe(true);
    expect(brief.cards.map((c) => [c.title, c.text])).toEqual([
      ['Instruction 1', 'Keep it noir.'],
      ['Instruction 2', 'Golden hour light.'],
    ]);
    const written = await changeBrief(pro, {
      projectId,
      change: { op: 'add', card: { title: 'Cast', text: 'Mira leads.', characters: ['Mira'] } },
    });
    const mira = h.sim.scenario.briefOf(projectId).cards.find((c) => c.title === 'Cast')?.characterIds;
    expect(mira).toHaveLength(1);
    expect(written.after.cards.map((c) => c.title)).toEqual(['Instruction 1', 'Instruction 2', 'Cast']);
    expect((await readBrief(pro, { projectId })).cards[2]).toMatchObject({ text: 'Mira leads.', character_ids: mira });
  });
});

describe('upscale', () => {
  it('upscales an image to 2K: the bytes are a JPEG twice the size', async () => {
    const original = await findMediaUrl(pro, { projectId, mediaId: imageId, kind: 'image' });
    expect(original.source).toBe('grid');
    const out = await upscaleImage(pro, { projectId, mediaId: imageId, scale: '2k' });
    expect(out.extension).toBe('.jpg');
    const size = readImageSize(out.bytes);
    expect(size?.format).toBe('jpeg');
    expect(size?.width).toBeGreaterThan(1000);
  });

  it('refuses 4K on a Pro account with 22 before anything is sent', async () => {
    const before = h.sim.received.calls('SPrCad').length;
    const error = await upscaleImage(pro, { projectId, mediaId: imageId, scale: '4k' }).catch((e: unknown) => e);
    expect(exitCodeOf(error)).toBe(22);
    expect(h.sim.received.calls('SPrCad').length).toBe(before);
  });

  it('upscales to 4K on an Ultra account (4× the original)', async () => {
    const ultraProject = h.sim.scenario.createProject(ULTRA, { title: 'Ultra' }).id;
    const id = await makeMedia(ultra, ultraProject, 'image', 'a red kite');
    const out = await upscaleImage(ultra, { projectId: ultraProject, mediaId: id, scale: '4k' });
    expect(readImageSize(out.bytes)?.width).toBeGreaterThan(2000);
  });

  it('says 32 for a media id the grid does not show', async () => {
    const error = await upscaleImage(pro, {
      projectId,
      mediaId: '00000000-0000-4000-8000-000000000000',
      scale: '2k',
    }).catch((e: unknown) => e);
    expect(exitCodeOf(error)).toBe(32);
  });

  it("upscales a video to 1080p from the page's own poll", async () => {
    const out = await upscaleVideo(pro, { projectId, mediaId: videoId, scale: '1080p', timeoutMs: 60_000 });
    expect(out.extension).toBe('.mp4');
    expect(out.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
  });

  it('exports the 270p animated GIF, which the detail view offers enabled (flow-captures.md §8)', async () => {
    const out = await upscaleVideo(pro, { projectId, mediaId: videoId, scale: '270p' });
    expect(out.extension).toBe('.gif');
    expect(out.bytes.subarray(0, 6).toString('latin1')).toBe('GIF89a');
  });
});

describe('download by media id', () => {
  it('finds the signed URL in the project records and downloads verified bytes', async () => {
    const where = await findMediaUrl(pro, { projectId, mediaId: videoId, kind: 'video' });
    expect(where.source).toBe('records');
    expect(new URL(where.url).hostname).toBe('flow-content.google');
    const got = await downloadMediaById(pro, { projectId, mediaId: videoId, kind: 'video' });
    expect(got.extension).toBe('.mp4');
    expect(got.bytes.length).toBe(where.expected_bytes);
  });

  it("downloads an image by id from its grid tile (the session-gated /asb URL, fetched with the page's cookies)", async () => {
    const where = await findMediaUrl(pro, { projectId, mediaId: imageId, kind: 'image' });
    expect(new URL(where.url).pathname).toMatch(/^\/asb\//);
    const got = await downloadMediaById(pro, { projectId, mediaId: imageId, kind: 'image' });
    expect(['.png', '.jpg', '.webp']).toContain(got.extension);
    expect(got.bytes.length).toBeGreaterThan(1000);
  });

  it('retries a dropped connection', async () => {
    h.sim.scenario.setFailure(PRO, 'dropped_download', { times: 1 });
    const got = await downloadMediaById(pro, { projectId, mediaId: videoId, kind: 'video' });
    expect(got.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
  });
});
