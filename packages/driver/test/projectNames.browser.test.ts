// Names and titles as a project's page shows them (issue 41): what a generation returns of them
// (the reply's title, else the tile's; the project's title) and what `data sync` reads afterwards
// (readProjectNames), on each value of the [U] switch tileName — the tile's picture names its media
// (alt), or nothing does but the `@` picker, beside the tile's own /asb/ thumbnail. Nothing spends.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readProjectNames } from '../src/index.js';
import { useRig } from './helpers/simSession.js';

const rig = useRig('driver-project-names');
const email = 'project-names@example.com';
let projectId: string;
let imageId: string;
let clipId: string;

beforeAll(async () => {
  rig.sim.scenario.createAccount({ email, credits: 5000, uploadTermsAccepted: true });
  await rig.signIn(email);
  const made = await rig.session.generateImage({
    newProjectTitle: 'Harbour studies',
    prompt: 'a lighthouse at dawn',
    model: 'nano2',
    aspect: '16:9',
    count: 1,
  });
  projectId = made.projectId;
  imageId = made.items[0]?.mediaId ?? '';
  expect(made.projectTitle).toBe('Harbour studies');
  const clip = await rig.session.generateVideo({
    mode: 't2v',
    projectId,
    prompt: 'waves roll over the pier',
    aspect: '16:9',
    count: 1,
    timeoutMs: 120_000,
  });
  clipId = clip.items[0]?.mediaId ?? '';
  // A clip's reply carries no record title: its summary does (flow-wire §3a), and the item says it.
  expect(clip.items[0]?.displayName).toBe('Waves roll over the pier');
  expect(clip.projectTitle).toBe('Harbour studies');
}, 180_000);

afterEach(() => {
  rig.sim.scenario.resetVariants();
});

describe('names and titles from the project page', () => {
  it("tiles name their media (alt): the page's title and each name, as the library lists them", async () => {
    const read = await readProjectNames(rig.session.context, { projectId });
    expect(read.title).toBe('Harbour studies');
    const byId = new Map(read.media.map((m) => [m.media_id, m]));
    expect(byId.get(imageId)).toMatchObject({ name: 'A lighthouse at dawn', source: 'tile' });
    expect(byId.get(clipId)).toMatchObject({ name: 'Waves roll over the pier', source: 'tile' });
  });

  it('tiles name nothing (tileName none): the @ picker names them by the same thumbnail; nothing is submitted', async () => {
    rig.sim.scenario.setVariants({ tileName: 'none' });
    const submits = rig.sim.received.submits().length;
    const read = await readProjectNames(rig.session.context, { projectId });
    const byId = new Map(read.media.map((m) => [m.media_id, m]));
    expect(byId.get(imageId)).toMatchObject({ name: 'A lighthouse at dawn', source: 'picker' });
    expect(byId.get(clipId)).toMatchObject({ name: 'Waves roll over the pier', source: 'picker' });
    expect(rig.sim.received.submits().length).toBe(submits);
  });

  it('media followed by id (no reply to read) take the name their tile shows, none when the tile shows none', async () => {
    const follow = () =>
      rig.session.followMedia({ projectId, kind: 'image', mediaIds: [imageId], prompt: 'p', timeoutMs: 60_000 });
    const named = await follow();
    expect(named.items[0]?.displayName).toBe('A lighthouse at dawn');
    expect(named.projectTitle).toBe('Harbour studies');
    rig.sim.scenario.setVariants({ tileName: 'none' });
    const unnamed = await follow();
    expect(unnamed.items[0]?.displayName).toBeUndefined();
  });

  it("a project this account does not have: refused as Flow's 404 says, and an id that is none before any page", async () => {
    const other = rig.sim.scenario.createProject(email);
    const missing = other.id.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
    const error = await readProjectNames(rig.session.context, { projectId: missing }).catch((e: unknown) => e);
    // Flow's own /404?reason=project landing, as a generation meets it (exit 11, naming the project).
    expect(error).toMatchObject({ code: 'configuration', message: expect.stringContaining('another account') });
    await expect(readProjectNames(rig.session.context, { projectId: 'not-a-uuid' })).rejects.toMatchObject({
      code: 'bad-parameter',
    });
  });
});
