// A warm session keeps its page (#22): the next run on the same project reuses the open editor
// after a health check instead of loading it again (frames the last run left bound are unbound,
// assets attached in place told apart on the kept page: issue 45); another project, a failure or a
// lost sign-in load it afresh. What the simulator served (its page
// loads) shows which, and the submit bodies show that a reused composer sends only this run.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VARIANT_VALUES, makePng } from '@gflow/flow-sim';
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
});

// Issue 45: an asset attached in place no longer makes the page load again. A tile the page drew
// from a reply since it loaded has no /asb/ token; the page's own search reply pairs one with the id
// (searchThumbs 'in-row'), and where it does not ('parallel', [U]), the kept page cannot tell two
// images of one prompt apart and loads afresh. Either way the submit names the image asked for.
describe.each(VARIANT_VALUES.searchThumbs)('an image attached in place on a kept page (searchThumbs=%s)', (thumbs) => {
  const twoOfOnePrompt = async (): Promise<{ projectId: string; other: string; wanted: string }> => {
    rig.sim.scenario.setVariants({ searchThumbs: thumbs });
    const { id } = rig.sim.scenario.createProject(email);
    // The simulator titles an image after its prompt's first words: both are "Twin kites at dusk".
    const made = await rig.session.generateImage({ ...image, count: 2, projectId: id, prompt: 'Twin kites at dusk' });
    const [other, wanted] = made.items.map((i) => i.mediaId);
    expect(loads(id)).toBe(1);
    return { projectId: id, other: other!, wanted: wanted! };
  };
  const keptOrReloaded = thumbs === 'in-row' ? 1 : 2;

  it('i2v: the Start frame binds the image asked for, out of two of its name', async () => {
    const { projectId, other, wanted } = await twoOfOnePrompt();
    const clip = await rig.session.generateVideo({
      mode: 'i2v',
      projectId,
      prompt: 'the kites climb',
      model: 'veo_3_1_lite',
      aspect: '16:9',
      count: 1,
      startFrame: { mediaId: wanted, displayName: 'Twin kites at dusk' },
      timeoutMs: 90_000,
    });
    const body = rig.sim.received.calls('eb1hJf').at(-1)?.inner ?? '';
    expect(body).toContain(wanted);
    expect(body).not.toContain(other);
    expect(clip.uploads).toHaveLength(0);
    expect(loads(projectId)).toBe(keptOrReloaded);
  }, 120_000);

  it('r2v: the @ mention binds the image asked for, out of two of its name', async () => {
    const { projectId, other, wanted } = await twoOfOnePrompt();
    const clip = await rig.session.generateVideo({
      mode: 'r2v',
      projectId,
      prompt: 'the kites dance',
      model: 'veo_3_1_lite',
      aspect: '16:9',
      duration: 8,
      count: 1,
      references: [{ mediaId: wanted, displayName: 'Twin kites at dusk' }],
      timeoutMs: 90_000,
    });
    const body = rig.sim.received.calls('MZZa6b').at(-1)?.inner ?? '';
    expect(body).toContain(wanted);
    expect(body).not.toContain(other);
    expect(clip.uploads).toHaveLength(0);
    expect(loads(projectId)).toBe(keptOrReloaded);
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
