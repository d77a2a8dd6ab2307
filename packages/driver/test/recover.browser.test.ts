// Recovery of paid steps (issue 38): media a submit already made are followed by their ids
// (followMedia), and a submit whose reply was never read is found in its project's listing
// (findSubmitted) — both without submitting anything. The submits here are made the way a person
// makes them, on a page of the session's browser that is closed once Flow has the submit and
// before its reply (the simulator's held_submit_reply), as a killed gflow leaves them. Each image
// journey runs on every value of pendingImage [U], the clip journey on the record variants.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ContentPolicyError,
  ReferenceNotFoundError,
  TransportTimeoutError,
  WireFormatError,
  isRetryable,
} from '@gflow/errors';
import { VARIANT_VALUES, type Variants } from '@gflow/flow-sim';
import { makeMedia, openProject, pickSettings, submit, typePrompt } from '@gflow/testkit/browser';
import { useRig } from './helpers/simSession.js';

const rig = useRig('driver-recover');
const email = 'recover@example.com';
const FOLLOW_MS = 60_000;

beforeAll(async () => {
  rig.sim.scenario.createAccount({ email, credits: 100_000, uploadTermsAccepted: true });
  await rig.signIn(email);
}, 60_000);

afterEach(() => {
  rig.sim.scenario.clearFailures();
  rig.sim.scenario.resetVariants();
});

const newProject = (): string => rig.sim.scenario.createProject(email).id;
const submitsNow = (): number => rig.sim.received.submits().length;
const loadsOf = (projectId: string): number =>
  rig.sim.received.pages().filter((p) => p.path === `/project/${projectId}`).length;

/** A submit whose reply is never read: a page of the session's browser, closed once Flow has the submit. Returns its media id (Flow's) and click time. */
async function submitThenClose(projectId: string, kind: 'image' | 'video', prompt: string) {
  const page = await rig.session.context.newPage();
  try {
    await openProject(page, projectId);
    await pickSettings(page, [{ icon: kind === 'image' ? 'image' : 'videocam' }]);
    await typePrompt(page, prompt);
    rig.sim.scenario.setFailure(email, 'held_submit_reply', { times: 1 });
    const before = submitsNow();
    const since = Date.now();
    await submit(page);
    await expect.poll(submitsNow).toBe(before + 1);
    const made = rig.sim.scenario.mediaOf(projectId).find((m) => m.prompt === prompt);
    if (made === undefined) throw new Error('the simulator made nothing');
    return { mediaId: made.id, since };
  } finally {
    await page.close();
  }
}

/** Runs `lookup` while the image is held pending, and finishes the image once the driver has loaded the project after `loads`. */
async function releasedAfterALoad<T>(projectId: string, mediaId: string, lookup: () => Promise<T>): Promise<T> {
  const loads = loadsOf(projectId);
  const running = lookup();
  const released = expect
    .poll(() => loadsOf(projectId), { timeout: FOLLOW_MS })
    .toBeGreaterThan(loads)
    .then(() => rig.sim.scenario.setImageReady(mediaId, true));
  const [result] = await Promise.all([running, released]);
  return result;
}

describe('followMedia: media already submitted, by id', { timeout: 120_000 }, () => {
  it('an image: its signed URL, downloadable; recovered, nothing submitted', async () => {
    const projectId = newProject();
    const mediaId = await makeMedia(rig.session.context, projectId, 'image', 'a pier at noon');
    const submits = submitsNow();
    const result = await rig.session.followMedia({
      projectId,
      kind: 'image',
      mediaIds: [mediaId],
      prompt: 'a pier at noon',
      timeoutMs: FOLLOW_MS,
    });
    expect(result).toMatchObject({
      projectId,
      recovered: true,
      arm: 'classic',
      submitRpc: '',
      submitBody: '',
      uploads: [],
    });
    expect(result.items).toEqual([expect.objectContaining({ mediaId, prompt: 'a pier at noon', workflowId: null })]);
    expect(new URL(result.items[0]!.url).hostname).toBe('flow-content.google');
    const file = await rig.session.download(result.items[0]!.url, { kind: 'image' });
    expect(file.extension).toBe('.jpg');
    expect(submitsNow()).toBe(submits);
  });

  it("a clip just submitted (still generating) is followed through the page's polls to done with its URL", async () => {
    const projectId = newProject();
    const { mediaId } = await submitThenClose(projectId, 'video', 'a lighthouse blinks');
    const result = await rig.session.followMedia({
      projectId,
      kind: 'video',
      mediaIds: [mediaId],
      prompt: 'a lighthouse blinks',
      timeoutMs: FOLLOW_MS,
    });
    expect(result.recovered).toBe(true);
    expect(result.items[0]).toMatchObject({ mediaId, prompt: 'a lighthouse blinks' });
    const file = await rig.session.download(result.items[0]!.url, {
      kind: 'video',
      fallbackUrl: result.items[0]!.posterUrl ?? null,
    });
    expect(file.extension).toBe('.mp4');
  });

  // Still running for ever (stuck_generation): followMedia waits on it, and never answers early.
  it('a clip that never finishes: the wait ends at timeoutMs (retryable), nothing submitted', async () => {
    const projectId = newProject();
    rig.sim.scenario.setFailure(email, 'stuck_generation', { times: 1, rpcIds: ['YhhmEf'] });
    const { mediaId } = await submitThenClose(projectId, 'video', 'a clock that stops');
    const submits = submitsNow();
    const error = await rig.session
      .followMedia({ projectId, kind: 'video', mediaIds: [mediaId], prompt: 'a clock that stops', timeoutMs: 2_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportTimeoutError);
    expect(isRetryable(error)).toBe(true);
    expect(submitsNow()).toBe(submits);
  });

  it('a failed clip: the error a generation would give (content policy)', async () => {
    const projectId = newProject();
    rig.sim.scenario.setFailure(email, 'content_policy', { times: 1, rpcIds: ['YhhmEf'] });
    const { mediaId } = await submitThenClose(projectId, 'video', 'a refused scene');
    const error = await rig.session
      .followMedia({ projectId, kind: 'video', mediaIds: [mediaId], prompt: 'a refused scene', timeoutMs: FOLLOW_MS })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContentPolicyError);
    expect(error).toMatchObject({ extensions: expect.objectContaining({ flow_media_id: mediaId }) });
  });

  it('an id the project does not list: ReferenceNotFoundError (image and video)', async () => {
    const projectId = newProject();
    const unknown = '0badc0de-0000-4000-8000-000000000000';
    for (const kind of ['image', 'video'] as const) {
      const error = await rig.session
        .followMedia({ projectId, kind, mediaIds: [unknown], prompt: 'nothing', timeoutMs: 10_000 })
        .catch((e: unknown) => e);
      expect(error, kind).toBeInstanceOf(ReferenceNotFoundError);
    }
  });

  it('bad input is refused before anything is opened', async () => {
    const loads = rig.sim.received.pages().length;
    const error = await rig.session
      .followMedia({ projectId: 'not-a-uuid', kind: 'image', mediaIds: [], prompt: '', timeoutMs: 1 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 2 });
    expect(rig.sim.received.pages().length).toBe(loads);
  });
});

describe('findSubmitted: a submit whose reply was never read', { timeout: 120_000 }, () => {
  it.each(VARIANT_VALUES.pendingImage)(
    'pendingImage=%s: one new image among known ones is found (held pending first), then followed',
    async (variant) => {
      rig.sim.scenario.setVariants({ pendingImage: variant } as Partial<Variants>);
      const projectId = newProject();
      const known = await makeMedia(rig.session.context, projectId, 'image', 'an earlier image');
      const { mediaId, since } = await submitThenClose(projectId, 'image', 'the lost image');
      rig.sim.scenario.setImageReady(mediaId, false);
      const find = () =>
        rig.session.findSubmitted({
          projectId,
          kind: 'image',
          count: 1,
          knownMediaIds: [known],
          prompt: 'the lost image',
          since,
          timeoutMs: FOLLOW_MS,
        });
      // A pending tile naming its id is found at once; otherwise the image shows only once done.
      const lookup = variant === 'tile-media-id' ? await find() : await releasedAfterALoad(projectId, mediaId, find);
      expect(lookup).toEqual({ kind: 'found', mediaIds: [mediaId], workflowIds: [] });
      const follow = () =>
        rig.session.followMedia({ projectId, kind: 'image', mediaIds: [mediaId], prompt: 'x', timeoutMs: FOLLOW_MS });
      const result =
        variant === 'tile-media-id' ? await releasedAfterALoad(projectId, mediaId, follow) : await follow();
      expect(result.items.map((i) => i.mediaId)).toEqual([mediaId]);
    },
  );

  it('nothing new long after the click: none', async () => {
    const projectId = newProject();
    const known = await makeMedia(rig.session.context, projectId, 'image', 'the only image');
    for (const kind of ['image', 'video'] as const) {
      const lookup = await rig.session.findSubmitted({
        projectId,
        kind,
        count: 1,
        knownMediaIds: [known],
        prompt: 'never sent',
        since: Date.now() - 10 * 60_000,
        timeoutMs: 10_000,
      });
      expect(lookup, kind).toEqual({ kind: 'none' });
    }
  });

  it('nothing new yet, the click a moment ago: not an answer before timeoutMs (TransportTimeoutError)', async () => {
    const projectId = newProject();
    const error = await rig.session
      .findSubmitted({
        projectId,
        kind: 'image',
        count: 1,
        knownMediaIds: [],
        prompt: 'maybe sent',
        since: Date.now(),
        timeoutMs: 1_500,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportTimeoutError);
  });

  it('two new images when one was asked: ambiguous, naming both', async () => {
    const projectId = newProject();
    const since = Date.now();
    const a = await makeMedia(rig.session.context, projectId, 'image', 'one of two');
    const b = await makeMedia(rig.session.context, projectId, 'image', 'two of two');
    const lookup = await rig.session.findSubmitted({
      projectId,
      kind: 'image',
      count: 1,
      knownMediaIds: [],
      prompt: 'one of two',
      since,
      timeoutMs: 10_000,
    });
    expect(lookup.kind).toBe('ambiguous');
    expect(lookup.kind === 'ambiguous' ? [...lookup.mediaIds].sort() : []).toEqual([a, b].sort());
  });

  it.each([
    ['the captured defaults', {}],
    ['videoUrls=poll', { videoUrls: 'poll' }],
    ['recordMarker=CAE', { recordMarker: 'CAE' }],
  ] as const)(
    '%s: a clip whose page closed before the reply is found by its prompt among other new clips, then followed',
    async (_label, variants) => {
      rig.sim.scenario.setVariants(variants as Partial<Variants>);
      const projectId = newProject();
      const { mediaId, since } = await submitThenClose(projectId, 'video', 'the lost clip');
      await makeMedia(rig.session.context, projectId, 'video', 'another clip, made later');
      const other = rig.sim.scenario.mediaOf(projectId).find((m) => m.prompt === 'another clip, made later')?.id;
      expect(other).toBeDefined();
      const submits = submitsNow();
      const lookup = await rig.session.findSubmitted({
        projectId,
        kind: 'video',
        count: 1,
        knownMediaIds: [],
        prompt: 'the lost clip',
        since,
        timeoutMs: FOLLOW_MS,
      });
      expect(lookup).toMatchObject({ kind: 'found', mediaIds: [mediaId] });
      expect(lookup.kind === 'found' ? lookup.mediaIds : []).not.toContain(other);
      const found = lookup.kind === 'found' ? lookup : { mediaIds: [], workflowIds: [] };
      const result = await rig.session.followMedia({
        projectId,
        kind: 'video',
        mediaIds: found.mediaIds,
        workflowIds: found.workflowIds,
        prompt: 'the lost clip',
        timeoutMs: FOLLOW_MS,
      });
      expect(result.items[0]?.url).toMatch(/^https:\/\/flow-content\.google\/video\//);
      expect(submitsNow()).toBe(submits);
    },
  );

  it('a grid tile without a media id is not guessed at: WireFormatError (7)', async () => {
    const projectId = newProject();
    await makeMedia(rig.session.context, projectId, 'image', 'a tile to strip');
    // The page as gflow would meet a grid it does not know: the tile's id taken off before it is read.
    await rig.session.context.addInitScript(() => {
      new MutationObserver(() => {
        for (const img of document.querySelectorAll('flow-image-tile img[data-media-id]'))
          img.removeAttribute('data-media-id');
      }).observe(document, { subtree: true, childList: true });
    });
    const error = await rig.session
      .findSubmitted({
        projectId,
        kind: 'image',
        count: 1,
        knownMediaIds: [],
        prompt: 'x',
        since: Date.now() - 10 * 60_000,
        timeoutMs: 5_000,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WireFormatError);
    expect(error).toMatchObject({ exitCode: 7 });
  });
});
