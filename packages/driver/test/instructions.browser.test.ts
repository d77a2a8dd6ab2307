// Instruction cards written through the brief panel (issue 19), against the simulator's panel [U]
// (packages/flow-sim/README.md "The brief panel"): every change round-trips (the simulator's own
// state says what was stored, the driver's read-back says the same), references resolve (a media
// id, an uploaded local image, a character by name), refusals come before anything is sent, a
// server that stores something else is exit 7 with both sets, and both brief variants pass.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { type GflowError, exitCodeOf } from '@gflow/errors';
import { type Variants, makePng } from '@gflow/flow-sim';
import { makeMedia, useSimBrowser } from '@gflow/testkit/browser';
import { readBrief } from '../src/instructions/readBrief.js';
import { changeBrief } from '../src/instructions/writeBrief.js';
import { pageSnapshotOf } from '../src/session/scratchPage.js';

const EMAIL = 'brief@example.com';
const h = useSimBrowser({ seed: 'driver-instructions' });
let ctx: BrowserContext;
let projectId = '';
let imageId = '';
let mira = '';
let localPng = '';
let files = '';

beforeAll(async () => {
  h.sim.scenario.createAccount({ email: EMAIL, password: 'pw', credits: 500, uploadTermsAccepted: true });
  ctx = await h.signedInContext(EMAIL, 'pw');
  projectId = h.sim.scenario.createProject(EMAIL, { title: 'Briefed' }).id;
  mira = h.sim.scenario.addCharacter(projectId, { displayName: 'Mira' }).entityId;
  h.sim.scenario.addCharacter(projectId, { displayName: 'Juno' });
  h.sim.scenario.addCharacter(projectId, { displayName: 'Juno' });
  imageId = await makeMedia(ctx, projectId, 'image', 'a lighthouse at dusk');
  files = h.tempPath('files');
  fs.mkdirSync(files, { recursive: true });
  localPng = path.join(files, 'moodboard.png');
  fs.writeFileSync(localPng, makePng(96, 64, 'moodboard'));
});
afterAll(async () => {
  await ctx?.close().catch(() => undefined);
});
afterEach(() => {
  h.sim.scenario.resetVariants();
  h.sim.scenario.clearFailures();
});

const stored = () => h.sim.scenario.briefOf(projectId);
const storedCard = (title: string) => stored().cards.find((c) => c.title === title);
/** What the page sent since `clear()`, the idle noise left out. */
const sent = () =>
  h.sim.received
    .calls()
    .map((c) => c.rpcId)
    .filter((id) => id !== 'DTaVef');

async function failure(run: Promise<unknown>): Promise<GflowError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'the change should have failed').toBeDefined();
  return error as GflowError;
}

describe('reading', () => {
  it('reads an empty brief from the panel (it is rendered empty)', async () => {
    expect(await readBrief(ctx, { projectId })).toEqual({ enabled: true, cards: [] });
  });
});

describe('each change round-trips', () => {
  it('add with a media id reference: stored with it, read back with a stable id', async () => {
    const written = await changeBrief(ctx, {
      projectId,
      change: { op: 'add', card: { title: 'Look', text: 'Match the lighthouse.', image_media_ids: [imageId] } },
    });
    const card = storedCard('Look');
    expect(card).toMatchObject({ text: 'Match the lighthouse.', enabled: true, imageMediaIds: [imageId] });
    expect(written.after.cards).toEqual([
      {
        id: card!.id,
        title: 'Look',
        enabled: true,
        text: 'Match the lighthouse.',
        image_media_ids: [imageId],
        character_ids: [],
      },
    ]);
    expect(written.before.cards).toEqual([]);
  });

  it('add with a local image: uploaded through the form (run-unique name) and referenced by its new media id', async () => {
    h.sim.received.clear();
    const written = await changeBrief(ctx, {
      projectId,
      change: { op: 'add', card: { title: 'Mood', text: 'This palette.', image_files: [localPng] } },
    });
    const card = storedCard('Mood')!;
    expect(card.imageMediaIds).toHaveLength(1);
    const upload = h.sim.received.calls('maseQ').at(-1);
    expect(upload?.inner).toMatch(/moodboard-[0-9a-f]{8}\.png/);
    expect(upload?.inner).not.toContain(card.imageMediaIds[0]);
    expect(written.intended.cards.find((c) => c.title === 'Mood')?.image_media_ids).toEqual(card.imageMediaIds);
    expect(written.after.cards.find((c) => c.title === 'Mood')?.image_media_ids).toEqual(card.imageMediaIds);
  });

  it('add with a character by name: the name resolves to the project’s entity id; a disabled card stays off', async () => {
    const written = await changeBrief(ctx, {
      projectId,
      change: { op: 'add', card: { title: 'Cast', text: 'Mira leads.', characters: ['mira'], enabled: false } },
    });
    expect(storedCard('Cast')).toMatchObject({ characterIds: [mira], enabled: false });
    expect(written.after.cards.find((c) => c.title === 'Cast')).toMatchObject({
      character_ids: [mira],
      enabled: false,
    });
  });

  it('enables by title, disables by id', async () => {
    await changeBrief(ctx, { projectId, change: { op: 'set_enabled', select: { title: 'CAST' }, enabled: true } });
    expect(storedCard('Cast')?.enabled).toBe(true);
    const id = storedCard('Look')!.id;
    const written = await changeBrief(ctx, {
      projectId,
      change: { op: 'set_enabled', select: { id }, enabled: false },
    });
    expect(storedCard('Look')?.enabled).toBe(false);
    expect(written.after.cards.find((c) => c.id === id)?.enabled).toBe(false);
  });

  it('removes one (through the confirm dialog)', async () => {
    const written = await changeBrief(ctx, { projectId, change: { op: 'remove', select: { title: 'mood' } } });
    expect(stored().cards.map((c) => c.title)).toEqual(['Look', 'Cast']);
    expect(written.after.cards.map((c) => c.title)).toEqual(['Look', 'Cast']);
  });

  it('switches the brief off and on (the cards stay)', async () => {
    const off = await changeBrief(ctx, { projectId, change: { op: 'toggle_mode', enabled: false } });
    expect(stored().enabled).toBe(false);
    expect(off.after).toMatchObject({ enabled: false, cards: off.before.cards });
    await changeBrief(ctx, { projectId, change: { op: 'toggle_mode', enabled: true } });
    expect(stored().enabled).toBe(true);
  });

  it('a change to what is already there clicks nothing', async () => {
    h.sim.received.clear();
    const written = await changeBrief(ctx, { projectId, change: { op: 'toggle_mode', enabled: true } });
    expect(written.after).toEqual(written.before);
    expect(sent()).toEqual([]);
  });

  it('apply replaces the set: keeps a card whose title matches (its id, its new text), drops one, adds one', async () => {
    const castId = storedCard('Cast')!.id;
    const written = await changeBrief(ctx, {
      projectId,
      change: {
        op: 'apply',
        cards: [
          { title: 'Cast', text: 'Mira and nobody else.', characters: [mira] },
          { title: 'Light', text: 'Golden hour.', image_media_ids: [imageId], enabled: false },
        ],
      },
    });
    expect(stored().cards.map((c) => [c.title, c.text, c.enabled])).toEqual([
      ['Cast', 'Mira and nobody else.', true],
      ['Light', 'Golden hour.', false],
    ]);
    expect(storedCard('Cast')?.id).toBe(castId);
    expect(storedCard('Light')?.imageMediaIds).toEqual([imageId]);
    expect(written.after.cards.map((c) => c.id)).toEqual([castId, storedCard('Light')!.id]);
  });
});

describe('refusals before anything is sent', () => {
  it('an ambiguous title is 11 with nothing clicked or sent', async () => {
    h.sim.scenario.addInstructionCard(projectId, { title: 'Twin', text: 'one' });
    h.sim.scenario.addInstructionCard(projectId, { title: 'twin', text: 'two' });
    const before = stored();
    h.sim.received.clear();
    const error = await failure(
      changeBrief(ctx, { projectId, change: { op: 'set_enabled', select: { title: 'TWIN' }, enabled: false } }),
    );
    expect(exitCodeOf(error)).toBe(11);
    expect(error.extensions['candidates']).toHaveLength(2);
    expect(sent()).toEqual([]);
    expect(stored()).toEqual(before);
  });

  it('an ambiguous character name is 11 and an unknown one 32; nothing is saved', async () => {
    const before = stored();
    h.sim.received.clear();
    const twins = await failure(
      changeBrief(ctx, { projectId, change: { op: 'add', card: { title: 'Pair', text: 'x', characters: ['Juno'] } } }),
    );
    expect(exitCodeOf(twins)).toBe(11);
    const unknown = await failure(
      changeBrief(ctx, {
        projectId,
        change: { op: 'add', card: { title: 'Pair', text: 'x', characters: ['Nobody'] } },
      }),
    );
    expect(exitCodeOf(unknown)).toBe(32);
    const media = await failure(
      changeBrief(ctx, {
        projectId,
        change: {
          op: 'add',
          card: { title: 'Pair', text: 'x', image_media_ids: ['00000000-0000-4000-8000-000000000000'] },
        },
      }),
    );
    expect(exitCodeOf(media)).toBe(32);
    expect(sent().filter((id) => id !== 'UpteDb')).toEqual([]);
    expect(stored()).toEqual(before);
  });

  it('a file that is not an image is refused (11) before anything is clicked', async () => {
    const notImage = path.join(files, 'notes.png');
    fs.writeFileSync(notImage, 'not an image');
    h.sim.received.clear();
    const error = await failure(
      changeBrief(ctx, {
        projectId,
        change: { op: 'add', card: { title: 'Bad', text: 'x', image_files: [notImage] } },
      }),
    );
    expect(exitCodeOf(error)).toBe(11);
    expect(sent()).toEqual([]);
  });

  it('a panel whose cards show no ids is drift (23), and no panel at all too; nothing is sent', async () => {
    const drifted = await (
      await h.browser()
    ).newContext({ ...h.sim.contextOptions, storageState: await ctx.storageState() });
    try {
      await drifted.addInitScript(() => {
        new MutationObserver(() => {
          for (const el of Array.from(document.querySelectorAll('flow-instruction-card[data-card-id]')))
            el.removeAttribute('data-card-id');
        }).observe(document, { subtree: true, childList: true });
      });
      h.sim.received.clear();
      const error = await failure(
        changeBrief(drifted, { projectId, change: { op: 'remove', select: { title: 'Cast' } } }),
      );
      expect(exitCodeOf(error)).toBe(23);
      expect(sent()).toEqual([]);
      // The failure photographed the page before it closed (core records it as an incident bundle).
      expect(pageSnapshotOf(error)).toMatchObject({ operation: 'changing the brief', atFailure: true });
    } finally {
      await drifted.close();
    }
    const bare = await (
      await h.browser()
    ).newContext({ ...h.sim.contextOptions, storageState: await ctx.storageState() });
    try {
      await bare.addInitScript(() => {
        new MutationObserver(() => document.querySelector('aside.instructions-panel')?.remove()).observe(document, {
          subtree: true,
          childList: true,
        });
      });
      expect(exitCodeOf(await failure(readBrief(bare, { projectId, timeoutMs: 10_000 })))).toBe(23);
      expect(
        exitCodeOf(
          await failure(
            changeBrief(bare, { projectId, timeoutMs: 10_000, change: { op: 'toggle_mode', enabled: false } }),
          ),
        ),
      ).toBe(23);
    } finally {
      await bare.close();
    }
  });
});

describe('the read-back', () => {
  it('a server that stores something else (brief_save_lossy) is exit 7, not retryable, with both sets', async () => {
    h.sim.scenario.setFailure(EMAIL, 'brief_save_lossy', { times: 1 });
    const error = await failure(
      changeBrief(ctx, { projectId, change: { op: 'add', card: { title: 'Lossy', text: 'keep this text' } } }),
    );
    expect(exitCodeOf(error)).toBe(7);
    expect(error.retryableOverride).toBe(false);
    expect(error.detail).toMatch(/left as Flow shows them/);
    expect(error.detail).toContain('"Lossy" has the text ""');
    const intended = error.extensions['intended'] as { cards: Array<{ title: string; text: string }> };
    const live = error.extensions['live'] as { cards: Array<{ title: string; text: string }> };
    expect(intended.cards.find((c) => c.title === 'Lossy')?.text).toBe('keep this text');
    expect(live.cards.find((c) => c.title === 'Lossy')?.text).toBe('');
    expect(storedCard('Lossy')?.text).toBe('');
    expect(pageSnapshotOf(error)?.url).toMatch(/^https:\/\/flow\.google\.com\/project\//);
  });

  it('a lost switch is caught too', async () => {
    h.sim.scenario.setFailure(EMAIL, 'brief_save_lossy', { times: 1 });
    const error = await failure(
      changeBrief(ctx, { projectId, change: { op: 'set_enabled', select: { title: 'Light' }, enabled: true } }),
    );
    expect(exitCodeOf(error)).toBe(7);
    expect(error.extensions['differences']).toEqual(['card "Light" is disabled']);
  });
});

const VARIANTS: ReadonlyArray<readonly [string, Partial<Variants>]> = [
  ['briefSave=explicit', { briefSave: 'explicit' }],
  ['briefRemoveConfirm=none', { briefRemoveConfirm: 'none' }],
];

describe.each(VARIANTS)('on the variant %s', (label, variants) => {
  it('add, disable, apply, remove and switch off all round-trip', async () => {
    const pid = h.sim.scenario.createProject(EMAIL, { title: label, instructions: ['Keep it noir.'] }).id;
    const here = h.sim.scenario.addCharacter(pid, { displayName: 'Mira' }).entityId;
    h.sim.scenario.setVariants(variants);
    await changeBrief(ctx, {
      projectId: pid,
      change: { op: 'add', card: { title: 'Cast', text: 'Mira.', characters: ['Mira'] } },
    });
    await changeBrief(ctx, {
      projectId: pid,
      change: { op: 'set_enabled', select: { title: 'Cast' }, enabled: false },
    });
    await changeBrief(ctx, {
      projectId: pid,
      change: {
        op: 'apply',
        cards: [
          { title: 'Cast', text: 'Mira only.', enabled: false, character_ids: [here] },
          { title: 'Light', text: 'Dusk.' },
          { title: 'Instruction 1', text: 'Keep it noir.' },
        ],
      },
    });
    await changeBrief(ctx, { projectId: pid, change: { op: 'remove', select: { title: 'Instruction 1' } } });
    const last = await changeBrief(ctx, { projectId: pid, change: { op: 'toggle_mode', enabled: false } });
    const brief = h.sim.scenario.briefOf(pid);
    expect(brief.enabled).toBe(false);
    expect(brief.cards.map((c) => [c.title, c.text, c.enabled, c.characterIds])).toEqual([
      ['Cast', 'Mira only.', false, [here]],
      ['Light', 'Dusk.', true, []],
    ]);
    expect(last.after.cards.map((c) => c.id)).toEqual(brief.cards.map((c) => c.id));
  });
});

describe('the agent-only layout', () => {
  it('has the same panel: add and read back', async () => {
    const email = 'brief-agent@example.com';
    h.sim.scenario.createAccount({ email, password: 'pw', cohort: 'agent_only', uploadTermsAccepted: true });
    const agent = await h.signedInContext(email, 'pw');
    try {
      const pid = h.sim.scenario.createProject(email, { title: 'Agent' }).id;
      const written = await changeBrief(agent, {
        projectId: pid,
        change: { op: 'add', card: { title: 'Tone', text: 'Quiet.' } },
      });
      expect(written.after.cards.map((c) => [c.title, c.text])).toEqual([['Tone', 'Quiet.']]);
      expect((await readBrief(agent, { projectId: pid })).cards).toEqual(written.after.cards);
    } finally {
      await agent.close();
    }
  });
});
