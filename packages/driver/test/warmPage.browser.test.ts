// A warm session keeps its page (#22): the next run on the same project reuses the open editor
// after a health check instead of loading it again (frames the last run left bound are unbound,
// assets attached in place told apart on the kept page: issue 45); another project, a failure or a
// lost sign-in load it afresh. What the simulator served (its page
// loads) shows which, and the submit bodies show that a reused composer sends only this run.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { VARIANT_VALUES, type Variants, makePng } from '@gflow/flow-sim';
import { useRig } from './helpers/simSession.js';

const rig = useRig('driver-warm-page');
const email = 'warm@example.com';
const image = { model: 'nano2', aspect: '1:1', count: 1 } as const;

const loads = (projectId: string): number =>
  rig.sim.received.pages().filter((p) => p.path === `/project/${projectId}`).length;

beforeAll(async () => {
  rig.sim.scenario.createAccount({ email, credits: 100_000, uploadTermsAccepted: true });
  await rig.signIn(email);
}, 60_000);

afterEach(() => rig.sim.scenario.resetVariants());

describe.each(VARIANT_VALUES.composerAfterSubmit)('a warm page (composerAfterSubmit=%s)', (after) => {
  beforeAll(() => rig.sim.scenario.setVariants({ composerAfterSubmit: after }));

  it('the second image in the same project does not load the page again, and sends only its own prompt', async () => {
    rig.sim.scenario.setVariants({ composerAfterSubmit: after });
    const { id } = rig.sim.scenario.createProject(email);
    await rig.session.generateImage({ ...image, projectId: id, prompt: 'a red kite over dunes' });
    expect(loads(id)).toBe(1);
    const second = await rig.session.generateImage({ ...image, projectId: id, prompt: 'a blue heron' });
    expect(loads(id)).toBe(1);
    expect(second.items).toHaveLength(1);
    const inner = rig.sim.received.calls('ogiZ0b').at(-1)?.inner ?? '';
    expect(inner).toContain('a blue heron');
    expect(inner).not.toContain('red kite');
    expect(rig.logs.some((l) => l.includes('reusing the open project page'))).toBe(true);
  });

  it('another project, then a failed run, load the page afresh', async () => {
    rig.sim.scenario.setVariants({ composerAfterSubmit: after });
    const a = rig.sim.scenario.createProject(email).id;
    const b = rig.sim.scenario.createProject(email).id;
    await rig.session.generateImage({ ...image, projectId: a, prompt: 'first in a' });
    await rig.session.generateImage({ ...image, projectId: b, prompt: 'first in b' });
    expect([loads(a), loads(b)]).toEqual([1, 1]);
    rig.sim.scenario.setFailure(email, 'internal_error', { times: 1 });
    await expect(rig.session.generateImage({ ...image, projectId: b, prompt: 'refused' })).rejects.toMatchObject({
      exitCode: 31,
    });
    expect(loads(b)).toBe(1);
    // Never reuse a page an operation failed on.
    await rig.session.generateImage({ ...image, projectId: b, prompt: 'after the failure' });
    expect(loads(b)).toBe(2);
    expect(rig.logs.some((l) => l.includes('the last operation on it failed'))).toBe(true);
  });

  it('i2v: a start frame still bound from the last run is never sent again by accident', async () => {
    rig.sim.scenario.setVariants({ composerAfterSubmit: after });
    const { id } = rig.sim.scenario.createProject(email);
    const frames = await Promise.all(
      ['warm-a.png', 'warm-b.png'].map(async (name) => {
        const file = path.join(rig.profileDir, name);
        await writeFile(file, makePng(640, 360, name));
        return file;
      }),
    );
    const video = {
      mode: 'i2v',
      projectId: id,
      model: 'veo_3_1_lite',
      aspect: '16:9',
      count: 1,
      timeoutMs: 90_000,
    } as const;
    const first = await rig.session.generateVideo({
      ...video,
      prompt: 'the first clip',
      startFrame: { path: frames[0]! },
    });
    const second = await rig.session.generateVideo({
      ...video,
      prompt: 'the second clip',
      startFrame: { path: frames[1]! },
    });
    const body = rig.sim.received.calls('eb1hJf').at(-1)?.inner ?? '';
    expect(body).toContain(second.uploads[0]?.mediaId);
    expect(body).not.toContain(first.uploads[0]?.mediaId);
    expect(body).toContain('the second clip');
    expect(body).not.toContain('the first clip');
    // Frames a composer keeps are unbound on the kept page (issue 45): no second load either way.
    expect(loads(id)).toBe(1);
  }, 120_000);

  it('i2v: the same start frame again is kept bound where the composer kept it, else bound afresh', async () => {
    rig.sim.scenario.setVariants({ composerAfterSubmit: after });
    const { id } = rig.sim.scenario.createProject(email);
    const name = `kept-${after}.png`;
    const { mediaId } = rig.sim.scenario.addUpload(email, id, name, makePng(640, 360, name));
    const clip = (prompt: string) =>
      rig.session.generateVideo({
        mode: 'i2v',
        projectId: id,
        prompt,
        model: 'veo_3_1_lite',
        aspect: '16:9',
        count: 1,
        startFrame: { mediaId, displayName: name },
        timeoutMs: 90_000,
      });
    await clip('the first clip');
    const [searched, logged] = [rig.sim.received.calls('UpteDb').length, rig.logs.length];
    await clip('the second clip');
    const body = rig.sim.received.calls('eb1hJf').at(-1)?.inner ?? '';
    expect(body).toContain(mediaId);
    expect(body).toContain('the second clip');
    expect(body).not.toContain('the first clip');
    // A kept chip is the one the first run's guarded submit sent: no picker is opened for it.
    const kept = rig.logs.slice(logged).some((l) => l.includes('keeping the frames the last run left bound'));
    expect(kept).toBe(after === 'keep');
    expect(rig.sim.received.calls('UpteDb').length - searched).toBe(after === 'keep' ? 0 : 1);
    expect(loads(id)).toBe(1);
  }, 120_000);
});

// Issue 45: an asset attached in place no longer makes the page load again. A tile the page drew
// from a reply since it loaded has no /asb/ token; the page's own search reply pairs one with the id
// (searchThumbs 'in-row'), and where it does not ('parallel', [U]), the kept page cannot tell two
// images of one prompt apart and loads afresh. Either way the submit names the image asked for. The
// other switches the attach goes through (what the composer keeps after a submit, the search's row
// order, what a media chip carries) run together on a kept page, as the canary combines them.
const IN_PLACE: ReadonlyArray<readonly [string, Partial<Variants>, 'kept' | 'reloaded']> = [
  ['searchThumbs=in-row', { searchThumbs: 'in-row' }, 'kept'],
  ['searchThumbs=parallel', { searchThumbs: 'parallel' }, 'reloaded'],
  [
    'composerAfterSubmit=clear, searchOrder=shuffled, mediaChipEntityId=media-id',
    { composerAfterSubmit: 'clear', searchOrder: 'shuffled', mediaChipEntityId: 'media-id' },
    'kept',
  ],
];

/** The asset searches the page typed a query for since the first `searched` ones (a picker's opening search has none). */
const typedSearches = (searched: number): string[] =>
  rig.sim.received
    .calls('UpteDb')
    .slice(searched)
    .map((c) => c.inner)
    .filter((inner) => !inner.startsWith('[""'));

/** Whether the run that logged after the first `logged` lines loaded its kept page afresh (bindOnFreshPageWhenUnsure). */
const afresh = (logged: number): boolean =>
  rig.logs.slice(logged).some((l) => l.includes('loading the project page afresh'));

/** An i2v run whose Start frame is `wanted`, attached in place by its name (and media id). */
const i2vInPlace = (projectId: string, prompt: string, wanted: string) =>
  rig.session.generateVideo({
    mode: 'i2v',
    projectId,
    prompt,
    model: 'veo_3_1_lite',
    aspect: '16:9',
    count: 1,
    startFrame: { mediaId: wanted, displayName: 'Twin kites at dusk' },
    timeoutMs: 90_000,
  });

/** An r2v run whose one @ reference is `wanted`, attached in place by its name (and media id). */
const r2vInPlace = (projectId: string, prompt: string, wanted: string) =>
  rig.session.generateVideo({
    mode: 'r2v',
    projectId,
    prompt,
    model: 'veo_3_1_lite',
    aspect: '16:9',
    duration: 8,
    count: 1,
    references: [{ mediaId: wanted, displayName: 'Twin kites at dusk' }],
    timeoutMs: 90_000,
  });

/** Two images of one prompt in a new project, made by this session (tiles drawn from the reply). */
async function twoOfOnePrompt(): Promise<{ projectId: string; other: string; wanted: string }> {
  const { id } = rig.sim.scenario.createProject(email);
  // The simulator titles an image after its prompt's first words: both are "Twin kites at dusk".
  const made = await rig.session.generateImage({ ...image, count: 2, projectId: id, prompt: 'Twin kites at dusk' });
  const [other, wanted] = made.items.map((i) => i.mediaId);
  expect(loads(id)).toBe(1);
  return { projectId: id, other: other!, wanted: wanted! };
}

describe.each(IN_PLACE)('an image attached in place on a kept page (%s)', (_label, variants, page) => {
  beforeEach(() => rig.sim.scenario.setVariants(variants));
  const loadsAfter = page === 'kept' ? 1 : 2;

  it('i2v: the Start frame binds the image asked for, out of two of its name', async () => {
    const { projectId, other, wanted } = await twoOfOnePrompt();
    const logged = rig.logs.length;
    const searched = rig.sim.received.calls('UpteDb').length;
    const clip = await i2vInPlace(projectId, 'the kites climb', wanted);
    const body = rig.sim.received.calls('eb1hJf').at(-1)?.inner ?? '';
    expect(body).toContain(wanted);
    expect(body).not.toContain(other);
    expect(clip.uploads).toHaveLength(0);
    expect(loads(projectId)).toBe(loadsAfter);
    expect(afresh(logged)).toBe(page === 'reloaded');
    // Where the page knows the image's thumbnail token, the option is taken off the list the picker
    // opens on, without a typed search; the kept page that cannot tell the two apart typed one (then
    // loaded afresh, where the tiles' tokens tell them apart on the opening list).
    expect(typedSearches(searched)).toHaveLength(page === 'reloaded' ? 1 : 0);
  }, 120_000);

  it('r2v: the @ mention binds the image asked for, out of two of its name', async () => {
    const { projectId, other, wanted } = await twoOfOnePrompt();
    const logged = rig.logs.length;
    const clip = await r2vInPlace(projectId, 'the kites dance', wanted);
    const body = rig.sim.received.calls('MZZa6b').at(-1)?.inner ?? '';
    expect(body).toContain(wanted);
    expect(body).not.toContain(other);
    expect(clip.uploads).toHaveLength(0);
    expect(loads(projectId)).toBe(loadsAfter);
    expect(afresh(logged)).toBe(page === 'reloaded');
  }, 120_000);
});

// A page that loaded with the two images shows each one's /asb/ token on its grid tile, which tells
// them apart on the kept page even where no search reply pairs a token with an id ('parallel').
describe('images the kept page loaded with (searchThumbs=parallel)', () => {
  beforeEach(() => rig.sim.scenario.setVariants({ searchThumbs: 'parallel' }));

  it('are told apart by their tiles: i2v on a fresh load, then r2v on the page it kept', async () => {
    const { projectId, other, wanted } = await twoOfOnePrompt();
    // Another project in between: the next run in this one loads it afresh, with both tiles.
    await rig.session.generateImage({ ...image, projectId: rig.sim.scenario.createProject(email).id, prompt: 'away' });
    await i2vInPlace(projectId, 'the kites climb', wanted);
    expect(loads(projectId)).toBe(2);
    const logged = rig.logs.length;
    await r2vInPlace(projectId, 'the kites dance', wanted);
    expect(afresh(logged)).toBe(false);
    const body = rig.sim.received.calls('MZZa6b').at(-1)?.inner ?? '';
    expect(body).toContain(wanted);
    expect(body).not.toContain(other);
    expect(loads(projectId)).toBe(2);
  }, 180_000);
});

// Where the Frames picker lists nothing until a query is typed ([U]), the Start frame is found by a
// typed search, as before the picker's opening list was read: the right image, on the kept page.
describe('a Frames picker that opens on nothing (libraryPickerOpens=empty)', () => {
  beforeEach(() => rig.sim.scenario.setVariants({ libraryPickerOpens: 'empty' }));

  it('i2v: a typed search binds the image asked for, out of two of its name, on the kept page', async () => {
    const { projectId, other, wanted } = await twoOfOnePrompt();
    const searched = rig.sim.received.calls('UpteDb').length;
    await i2vInPlace(projectId, 'the kites climb', wanted);
    const body = rig.sim.received.calls('eb1hJf').at(-1)?.inner ?? '';
    expect(body).toContain(wanted);
    expect(body).not.toContain(other);
    expect(typedSearches(searched).length).toBeGreaterThan(0);
    expect(loads(projectId)).toBe(1);
  }, 120_000);
});

describe('a warm page whose sign-in is gone', () => {
  it('is loaded afresh, and the landing says the profile is signed out', async () => {
    const { id } = rig.sim.scenario.createProject(email);
    await rig.session.generateImage({ ...image, projectId: id, prompt: 'before sign-out' });
    await rig.session.context.clearCookies();
    await expect(
      rig.session.generateImage({ ...image, projectId: id, prompt: 'after sign-out' }),
    ).rejects.toMatchObject({ exitCode: 3 });
    expect(loads(id)).toBe(2);
    expect(rig.logs.some((l) => l.includes('the session cookies are gone'))).toBe(true);
  });
});
