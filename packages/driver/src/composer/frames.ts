import type { Locator } from 'playwright-core';
import { ReferenceNotFoundError, UiSelectorDriftError } from '@gflow/errors';
import type { OpContext } from '../session/opContext.js';
import { untilDom, untilSettled } from '../util/domWait.js';
import { A, ASB_TOKEN, textsWithoutIcons } from './anchors.js';
import { FreshPageNeeded, thumbnailToken } from './thumbnailIds.js';
import { driftError } from './drift.js';
import { safeClick } from './safeClick.js';
import { SEARCH_RPC, openingSearch, searchAnswered } from './searchReply.js';
import type { TappedResponse } from '../session/wireTap.js';
import { type AttachableReference, LIST_QUIET_MS, withUploadFallback } from './mentions.js';

/** An option's position, or `ambiguous`: two or more options of the name and no token to tell them apart. */
type FoundOption = { readonly i: number } | 'ambiguous';

/** Each option's thumbnail src, as it stands in the picker's list. */
const thumbSrcs = (options: Locator): Promise<string[]> =>
  options
    .evaluateAll((els) => els.map((el) => el.querySelector('img')?.getAttribute('src') ?? ''))
    .catch((): string[] => []);

/** The `/asb/` token of a thumbnail src. */
const tokenOf = (src: string | undefined): string | undefined => ASB_TOKEN.exec(src ?? '')?.[1];

/**
 * The option to click: the first whose text contains the name — or, when the media id is known
 * (an asset attached in place), the one whose thumbnail shows that media: option thumbnails are
 * `/asb/<token>`, the token of the media's grid tile as the page loaded it (flow-wire §4), or as the
 * page's own search reply paired it (thumbnailIds.ts). Titles repeat (two images of one prompt), so a
 * name alone may point at another asset: with the token known it decides; without it, only a single
 * option of that name is taken, and two or more are `ambiguous`.
 */
async function findOption(
  ctx: OpContext,
  target: { displayName: string; mediaId?: string | undefined },
  timeoutMs: number,
): Promise<FoundOption | undefined> {
  const options = ctx.page.locator(`${A.picker} ${A.assetOption}`);
  // Read in every probe, without waiting: an upload has no grid tile, a tile may render late, and
  // the search reply that pairs a token with the id may be the one just answered.
  const tileToken = async (): Promise<string | undefined> =>
    target.mediaId === undefined ? undefined : thumbnailToken(ctx, target.mediaId);
  // The decision and the list it was made on, once both held still (the list re-renders as replies come).
  const settled = await untilSettled(
    ctx.page,
    async () => {
      // One snapshot of every option's text: the list re-renders while a search settles, and
      // reading the options one by one waited up to 30 s for each that had gone (measured: a
      // stalled journey in the variant matrix, two minutes with no request on the wire).
      const texts = await textsWithoutIcons(options).catch((): string[] => []);
      const named = texts.map((text, i) => ({ text, i })).filter((o) => o.text.includes(target.displayName));
      if (named.length === 0) return undefined;
      const decided = (i: number | undefined | 'ambiguous') => (i === undefined ? undefined : { i, texts });
      if (target.mediaId === undefined) return decided(named[0]?.i);
      const token = await tileToken();
      const thumbs = await thumbSrcs(options);
      if (token !== undefined) {
        const hit = named.find((o) => tokenOf(thumbs[o.i]) === token);
        return decided(hit?.i);
      }
      // A fresh page waits (a tile may render late); a kept page has drawn every tile it will.
      return decided(named.length === 1 ? named[0]?.i : ctx.pageKept ? 'ambiguous' : undefined);
    },
    { timeoutMs, quietMs: LIST_QUIET_MS, signal: ctx.signal },
  );
  return settled === undefined ? undefined : settled.i === 'ambiguous' ? 'ambiguous' : { i: settled.i };
}

/** Clicks the next empty Frames chip and waits for the library picker it opens. */
async function openFramePicker(ctx: OpContext, slot: 'Start' | 'End'): Promise<Locator> {
  const { page } = ctx;
  ctx.check(`binding the ${slot} frame`);
  const chip = page.locator(A.emptyChip).first();
  try {
    await safeClick(ctx, chip, `binding the ${slot} frame`);
  } catch (error) {
    const mapped = ctx.mapError(error, `binding the ${slot} frame`);
    if (mapped !== error) throw mapped;
    throw await driftError(page, `Could not click the empty ${slot} chip`, A.emptyChip, { cause: error });
  }
  const picker = page.locator(A.picker).filter({ visible: true }).first();
  const open = await untilDom(page, async () => ((await picker.isVisible().catch(() => false)) ? true : undefined), {
    timeoutMs: 5_000,
    signal: ctx.signal,
  });
  if (open !== true) throw await driftError(page, `The ${slot} chip did not open the library picker`, A.picker);
  return picker;
}

/**
 * The list the library picker opens on: the page asks for it as the picker opens (its search of
 * nothing) or not at all (`askedMs`), and Flow answers a search in ~0.3 s (flow-wire §3).
 */
const OPENING = { askedMs: 500, timeoutMs: 2_500 } as const;

/**
 * The option of an asset attached in place on the list the library picker opens on (the page's own
 * search of nothing, `UpteDb`: flow-sim `libraryPickerOpens` [U]): the option of its name whose
 * thumbnail shows its token (thumbnailIds.ts: its grid tile's, or the one that very reply pairs with
 * its id). The token decides, as in findOption, so no search need be typed, answered and left to
 * settle; the option is clicked by its thumbnail, wherever a re-render puts it. Undefined, and a
 * typed search decides, when the page asks for no such list, the token is unknown, or the list
 * shows other assets only.
 */
async function optionOnOpening(
  ctx: OpContext,
  picker: Locator,
  target: { displayName: string; mediaId: string },
  since: number,
): Promise<Locator | undefined> {
  const replies = await openingSearch(ctx, since, OPENING);
  const token = replies.length === 0 ? undefined : await thumbnailToken(ctx, target.mediaId);
  if (token === undefined) return undefined;
  const options = picker.locator(A.assetOption);
  const src = await untilDom(
    ctx.page,
    async () => {
      const texts = await textsWithoutIcons(options).catch((): string[] => []);
      const thumbs = await thumbSrcs(options);
      const hit = texts.findIndex((t, i) => t.includes(target.displayName) && tokenOf(thumbs[i]) === token);
      if (hit >= 0) return thumbs[hit] ?? '';
      // Drawn without it, or not to be drawn (the reply does not list it): the typed search decides.
      if (texts.length > 0 || !replies.some((r) => repliesWith(r, target.mediaId))) return null;
      return undefined;
    },
    { timeoutMs: OPENING.timeoutMs, signal: ctx.signal },
  );
  if (src === undefined || src === null) return undefined;
  const thumb = ctx.page.locator(`img[src="${src.replace(/["\\]/g, '\\$&')}"]`);
  return options.filter({ has: thumb }).filter({ hasText: target.displayName }).first();
}

/** Whether a search reply names this media id anywhere. */
const repliesWith = (reply: TappedResponse, mediaId: string): boolean =>
  (reply.envelope?.items ?? []).some(
    (item) => item.rpcId === SEARCH_RPC && JSON.stringify(item.payload).includes(mediaId),
  );

/** Searches the picker up to 3× (fresh uploads are indexed late); the option's position, or a refusal. */
async function searchFrameOption(
  ctx: OpContext,
  picker: Locator,
  slot: 'Start' | 'End',
  target: { displayName: string; mediaId?: string | undefined },
): Promise<number> {
  const search = picker.locator('input[type="text"]').first();
  let found: FoundOption | undefined;
  for (let attempt = 1; attempt <= 3 && (found === undefined || found === 'ambiguous'); attempt += 1) {
    ctx.check(`binding the ${slot} frame`);
    await search.fill('');
    const since = ctx.tap.seq;
    await search.fill(target.displayName);
    await searchAnswered(ctx, since, target.displayName, 2_500 * attempt);
    found = await findOption(ctx, target, 2_500 * attempt);
    // A kept page cannot tell same-named options apart where a fresh load could (its grid's tokens).
    if (found === 'ambiguous' && ctx.pageKept) {
      await ctx.page.keyboard.press('Escape');
      throw new FreshPageNeeded(`the ${slot} frame ${target.displayName}`);
    }
  }
  if (found !== undefined && found !== 'ambiguous') return found.i;
  await ctx.page.keyboard.press('Escape');
  throw new ReferenceNotFoundError(
    `The frame picker lists no asset named ${target.displayName} after three searches. Nothing was submitted.`,
    { extensions: { not_listed: true } },
  );
}

/** Whether the picker is visible now. */
const pickerOpen = (picker: Locator): Promise<boolean> => picker.isVisible().catch(() => false);

/** Clicks the option; the click commits (the picker closes) or asks for "Add to prompt" (pickerCommit variants). */
async function commitFrameOption(
  ctx: OpContext,
  picker: Locator,
  option: Locator,
  slot: 'Start' | 'End',
): Promise<void> {
  await option.click({ timeout: 5_000 });
  const confirm = picker.locator(A.addToPrompt).first();
  const wait = { timeoutMs: 5_000, signal: ctx.signal };
  const committed = await untilDom(
    ctx.page,
    async () => {
      if (!(await pickerOpen(picker))) return 'closed';
      return (await confirm.isVisible().catch(() => false)) ? 'confirm' : undefined;
    },
    wait,
  );
  if (committed === 'closed') return;
  if (committed !== 'confirm')
    throw new UiSelectorDriftError(
      `The frame picker stayed open after the ${slot} option click and carries no confirm (\`${A.addToPrompt}\`).`,
    );
  await confirm.click({ timeout: 5_000 });
  const hidden = await untilDom(ctx.page, async () => ((await pickerOpen(picker)) ? undefined : true), wait);
  if (hidden !== true)
    throw new UiSelectorDriftError(
      `The frame picker stayed open after the ${slot} option click and stayed open after its confirm was clicked.`,
    );
}

/**
 * Binds an uploaded asset to the next empty Frames chip (Start, then End) through the library
 * picker (flow-wire §4 "Frames"): search up to 3× (fresh uploads are indexed late), commit on the
 * option click or with "Add to prompt", then wait for `boundAfter` bound chips.
 */
export async function bindFrame(
  ctx: OpContext,
  slot: 'Start' | 'End',
  target: { displayName: string; mediaId?: string | undefined },
  boundAfter: number,
): Promise<void> {
  const { displayName, mediaId } = target;
  const { page } = ctx;
  const since = ctx.tap.seq;
  const picker = await openFramePicker(ctx, slot);
  // An asset attached in place, shown by the list the picker opened on; else the option found in
  // the settled list of a typed search (its position), clicked at once.
  const shown = mediaId === undefined ? undefined : await optionOnOpening(ctx, picker, { displayName, mediaId }, since);
  const option = shown ?? picker.locator(A.assetOption).nth(await searchFrameOption(ctx, picker, slot, target));
  await commitFrameOption(ctx, picker, option, slot);
  const bound = await untilDom(
    ctx.page,
    async () =>
      (await page
        .locator(A.boundChip)
        .count()
        .catch(() => 0)) >= boundAfter
        ? true
        : undefined,
    {
      timeoutMs: 5_000,
      signal: ctx.signal,
    },
  );
  if (bound !== true) {
    throw new ReferenceNotFoundError(
      `The ${slot} chip did not bind ${displayName}: the search and the click both landed, but the chip did not take the thumbnail. Nothing was submitted.`,
      {
        retryable: false,
      },
    );
  }
}

/**
 * Binds a frame reference: in place by its display name, and — when the picker does not list it
 * and the reference carries a fallback (an upload of its verified local file) — that upload
 * instead; the reference then becomes the upload (AttachableReference).
 */
export async function bindFrameRef(
  ctx: OpContext,
  slot: 'Start' | 'End',
  ref: AttachableReference,
  boundAfter: number,
): Promise<void> {
  // In place, the media id picks the option (by its thumbnail) among those of the same title; a
  // fresh upload's run-unique name is its own.
  await withUploadFallback(ctx, ref, 'the frame picker', () =>
    bindFrame(
      ctx,
      slot,
      { displayName: ref.displayName, ...(ref.inPlace ? { mediaId: ref.mediaId } : {}) },
      boundAfter,
    ),
  );
}
