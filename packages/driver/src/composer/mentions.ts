import { ReferenceNotFoundError } from '@gflow/errors';
import type { Locator } from 'playwright-core';
import type { OpContext } from '../session/opContext.js';
import { sleep } from '../util/abort.js';
import { untilDom, untilSettled } from '../util/domWait.js';
import { A, ASB_TOKEN, textsWithoutIcons } from './anchors.js';
import { caretToEnd } from './promptText.js';
import { searchAnswered } from './searchReply.js';
import { FreshPageNeeded, thumbnailToken } from './thumbnailIds.js';

export interface MentionTarget {
  readonly displayName: string;
  /** A media id, or a saved character's entity id (which its chip carries in `data-entity-id`). */
  readonly id: string;
  readonly referenceType: 'media' | 'entity';
}

export interface Chip {
  readonly type: string | null;
  readonly id: string | null;
  /** The chip's label: its text without the leading `@`. */
  readonly label: string;
}

/**
 * Whether a new chip is the one asked for (flow-captures.md §1). A character chip carries its
 * entity id (measured), so the id decides. A media chip carries no entity id on the real app
 * (peer model; the original reads `data-entity-id || ''`), so it is verified by its type and its
 * label; an id it does carry must be the media id. The submit guard then checks that the body
 * names every media id before anything leaves the browser.
 */
export function chipMatches(chip: Chip, target: MentionTarget): boolean {
  if (chip.type !== target.referenceType) return false;
  if (target.referenceType === 'entity') return chip.id === target.id;
  if (chip.id !== null && chip.id !== '') return chip.id === target.id;
  return chip.label.trim() === target.displayName.trim();
}

export const OPTION = `${A.overlayPane} ${A.assetOption}`;
/** How many options of the same name gflow binds (and removes again) before it refuses. */
const MAX_BINDS = 6;

async function chipIds(ctx: OpContext): Promise<Chip[]> {
  return ctx.page.locator(A.mentionChip).evaluateAll((els) =>
    els.map((e) => ({
      type: e.getAttribute('data-reference-type'),
      id: e.getAttribute('data-entity-id'),
      label: (e.textContent ?? '').replace(/^\s*@/, ''),
    })),
  );
}

/**
 * What identifies a picker option across re-renders: its name (icons left out) and its thumbnail's
 * address. Positions do not: a reply to a shorter query typed on the way can list the same options
 * in another order, and the list re-renders when the last reply lands.
 */
async function optionKeys(named: Locator): Promise<string[]> {
  const names = await textsWithoutIcons(named);
  const thumbs = await named.evaluateAll((els) => els.map((el) => el.querySelector('img')?.getAttribute('src') ?? ''));
  return names.map((n, i) => `${n}\u0000${thumbs[i] ?? ''}`);
}

/**
 * A picker list unchanged this long has settled: it re-renders as the replies to the queries typed
 * on the way come in (the simulator refreshes 150 ms after a key). The window the driver's earlier
 * 200 ms poll gave, under which the variant matrix passed; a reply later than that is caught when
 * the option is found again by its key before the click.
 */
export const LIST_QUIET_MS = 200;

export const nameOfKey = (key: string): string => key.slice(0, key.indexOf('\u0000'));
/** The thumbnail src in an option key (optionKeys). */
const thumbOfKey = (key: string): string => key.slice(key.indexOf('\u0000') + 1);

/**
 * The options listed once the list has stopped re-rendering (the same options for
 * {@link LIST_QUIET_MS}), as keys (optionKeys). Undefined when none is listed in time.
 */
async function settledKeys(ctx: OpContext, named: Locator, timeoutMs: number): Promise<string[] | undefined> {
  return untilSettled(
    ctx.page,
    async () => {
      const keys = await optionKeys(named).catch(() => [] as string[]);
      return keys.length > 0 ? keys : undefined;
    },
    { timeoutMs, quietMs: LIST_QUIET_MS, signal: ctx.signal },
  );
}

/**
 * Whether an option's text names `name`: the name alone, or followed directly by the type word the
 * `@` overlay writes after it ("me.jpgImage", "MeAvatar": flow-captures.md §1), one capitalised
 * word in any language.
 */
export function optionNames(text: string, name: string): boolean {
  if (text === name) return true;
  return text.startsWith(name) && /^\p{Lu}\p{Ll}+$/u.test(text.slice(name.length));
}

/** The name an option's text gives: without a trailing type word, when it carries one. */
export function optionName(text: string): string {
  const m = /^(.*\S)\p{Lu}\p{Ll}+$/u.exec(text);
  return m?.[1] ?? text;
}

/**
 * What gflow types after `@`: the name up to its first whitespace. A mention query may end at a
 * space (the simulator's picker closes there, as mention pickers commonly do); the options are
 * then matched by the whole name and the chip by its id.
 */
export function mentionQuery(name: string): string {
  return name.trim().split(/\s/)[0] ?? '';
}

/**
 * Whether a picker option shows another asset than the one whose thumbnail token is `token`:
 * option thumbnails are `/asb/<token>` (flow-wire §4; the media's token from thumbnailIds.ts). Only
 * decides when both are known (an upload has no grid tile); the submit guard checks the rest.
 */
async function showsOtherMedia(option: Locator, token: string | undefined): Promise<boolean> {
  const thumb = option.locator('img');
  if (token === undefined || (await thumb.count()) === 0) return false;
  const optionSrc = await thumb
    .first()
    .getAttribute('src', { timeout: 1_000 })
    .catch(() => null);
  const shown = optionSrc === null ? undefined : ASB_TOKEN.exec(optionSrc)?.[1];
  return shown !== undefined && shown !== token;
}

/**
 * The thumbnail token of the media a mention attaches (thumbnailIds.ts), read once the search reply
 * its query brought is in on a kept page (that reply may be what pairs the token with the id).
 */
async function mediaToken(ctx: OpContext, target: MentionTarget, since: number): Promise<string | undefined> {
  if (ctx.pageKept) await searchAnswered(ctx, since, mentionQuery(target.displayName), 2_500);
  return thumbnailToken(ctx, target.id);
}

/**
 * A media mention's candidates, named like the target first; with the media's token known, the
 * option showing that thumbnail before all: a name shared by many images (four of one prompt, made
 * again and again) would otherwise spend the tries on options the veto turns down, in whatever order
 * the unranked search lists them.
 */
function rankMedia(ctx: OpContext, target: MentionTarget, byName: (keys: readonly string[]) => string[]) {
  return async (keys: readonly string[], since: number): Promise<string[]> => {
    const ranked = byName(keys);
    const token = await mediaToken(ctx, target, since);
    if (token === undefined) return ranked;
    const shows = (key: string): boolean => ASB_TOKEN.exec(thumbOfKey(key))?.[1] === token;
    return [...ranked.filter(shows), ...ranked.filter((k) => !shows(k))];
  };
}

/**
 * The veto of a media mention's options: one showing another media (showsOtherMedia) is not bound.
 * On a page kept from the last run, where the media's token is unknown and two or more options
 * carry its name, none can be told apart: the page is loaded afresh instead (FreshPageNeeded).
 */
function mediaVeto(ctx: OpContext, named: Locator, target: MentionTarget) {
  return async (option: Locator, since: number): Promise<string | undefined> => {
    const token = await mediaToken(ctx, target, since);
    if (token === undefined && ctx.pageKept) {
      const texts = await textsWithoutIcons(named).catch((): string[] => []);
      if (texts.filter((t) => optionNames(t, target.displayName)).length >= 2)
        throw new FreshPageNeeded(`the reference ${target.displayName}`);
    }
    return (await showsOtherMedia(option, token)) ? `media with another thumbnail than ${target.id}` : undefined;
  };
}

/** Erases the typed `lead` + `@query` and closes the picker. */
async function eraseQuery(ctx: OpContext, typed: string): Promise<void> {
  for (let i = 0; i < typed.length; i += 1) await ctx.page.keyboard.press('Backspace');
  await ctx.page.keyboard.press('Escape');
}

/** The chips present now that were not in `before` (same type and id counted once per chip). */
function addedChips(before: readonly Chip[], now: readonly Chip[]): Chip[] {
  const left = [...before];
  return now.filter((c) => {
    const i = left.findIndex((b) => b.type === c.type && b.id === c.id && b.label === c.label);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

/** Deletes the chip just bound at the end of the prompt, and the `lead` typed before it, with key presses. */
async function removeLastChip(ctx: OpContext, want: number, label: string, lead: string): Promise<void> {
  await caretToEnd(ctx);
  for (let i = 0; i < 3; i += 1) {
    await ctx.page.keyboard.press('Backspace');
    if ((await chipIds(ctx)).length <= want) {
      for (let j = 0; j < lead.length; j += 1) await ctx.page.keyboard.press('Backspace');
      return;
    }
  }
  throw new ReferenceNotFoundError(
    `The @ mention of ${label} bound the wrong chip and it could not be removed again. Nothing was submitted.`,
    { retryable: false },
  );
}

/** How one `@` mention is searched and which of its options is kept (bindOptions). */
export interface OptionPlan {
  /** What is typed after `@`. */
  readonly query: string;
  /** What is typed before `@`: a space at the end of the prompt, nothing where the prompt's own `@` stands. */
  readonly lead: string;
  readonly label: string;
  /** The options considered. */
  readonly named: Locator;
  /** The keys to try, best first, out of the settled list's (`since`: as for `veto`). */
  readonly rank: (keys: readonly string[], since: number) => string[] | Promise<string[]>;
  /** How many searches may list nothing (late indexing) before giving up. */
  readonly searches: number;
  /**
   * The page's search for the query must be answered before the list is read: without its answer
   * the list may still be an earlier query's (the picker opens on everything), and a lookup that
   * decides whether a word names anything at all cannot tell. Unanswered: a timeout, nothing sent.
   */
  readonly needsAnswer?: boolean;
  /**
   * A reason not to bind an option (it shows another asset), checked before the click; `since` is
   * the tap sequence before the query was typed (its search reply came after it).
   */
  readonly veto?: (option: Locator, since: number) => Promise<string | undefined>;
  /** The chips one option bound: true keeps them and ends; false removes them again. */
  readonly accept: (added: readonly Chip[]) => boolean;
}

export interface OptionOutcome {
  readonly kept: boolean;
  /** What each removed option had bound. */
  readonly wrong: readonly string[];
  /** Whether any search listed a candidate. */
  readonly listed: boolean;
}

/**
 * How long the page's own search for a typed query may take to be answered: Flow's `UpteDb` replies
 * in about 0.3 s (flow-wire §3); a loaded page, a slow machine and the picker's debounce are what
 * the rest allows for.
 */
export const SEARCH_ANSWER_MS = 15_000;

/**
 * Waits for the page's search of the plan's query (typed after tap sequence `since`); a plan that
 * `needsAnswer` refuses to read a list the search never answered.
 */
async function awaitSearch(ctx: OpContext, plan: OptionPlan, since: number, typed: string): Promise<void> {
  const answered = await searchAnswered(ctx, since, plan.query, plan.needsAnswer ? SEARCH_ANSWER_MS : 2_500);
  if (answered || !plan.needsAnswer) return;
  await eraseQuery(ctx, typed);
  throw ctx.timeout(
    `The @ picker's search for ${plan.label} was not answered within ${SEARCH_ANSWER_MS / 1000} s, so gflow cannot tell which saved characters it names. Nothing was submitted`,
  );
}

/** Commits an option (Enter on the active one, else a click) and returns the chips it added. */
async function commitOption(ctx: OpContext, option: Locator, before: readonly Chip[], label: string): Promise<Chip[]> {
  const active = ((await option.getAttribute('class').catch(() => '')) ?? '').includes('asset-item-active');
  if (active) await ctx.page.keyboard.press('Enter');
  else await option.click({ timeout: 5_000 });
  const added = await untilDom(
    ctx.page,
    async () => {
      const now = addedChips(before, await chipIds(ctx));
      return now.length > 0 ? now : undefined;
    },
    { timeoutMs: 4_000, signal: ctx.signal },
  );
  if (added === undefined)
    throw new ReferenceNotFoundError(`The @ mention of ${label} bound no chip. Nothing was submitted.`, {
      retryable: false,
    });
  return added;
}

/**
 * Real key presses (`lead` + `@` + the query, flow-wire §4), an option committed (Enter on the
 * active one, else a click), then the new chip judged by `accept`. Names are not unique and the
 * search is unranked: an option that binds a chip `accept` refuses is removed again and the next
 * one tried — one not tried yet, told apart by its name and thumbnail, never by its position
 * (replies may list them in another order).
 */
export async function bindOptions(ctx: OpContext, plan: OptionPlan): Promise<OptionOutcome> {
  const { page } = ctx;
  const typed = `${plan.lead}@${plan.query}`;
  const wrong: string[] = [];
  const tried = new Set<string>();
  let misses = 0;
  let moved = 0;
  let listed = false;
  while (misses < plan.searches && wrong.length < MAX_BINDS) {
    ctx.check('attaching a reference');
    const before = await chipIds(ctx);
    await caretToEnd(ctx);
    const since = ctx.tap.seq;
    await page.keyboard.type(typed, { delay: 15 });
    await awaitSearch(ctx, plan, since, typed);
    const settled = await settledKeys(ctx, plan.named, 2_500 * (misses + 1));
    const order = settled === undefined ? undefined : await plan.rank(settled, since);
    if (order !== undefined && order.length > 0) listed = true;
    const key = order?.find((k) => !tried.has(k));
    if (key === undefined) {
      await eraseQuery(ctx, typed);
      // Every candidate was tried; otherwise late indexing: wait and search again.
      if (order !== undefined && order.length > 0) break;
      misses += 1;
      // A pause, not a wait: Flow's search indexes a fresh upload late and nothing on the page says
      // when (flow-wire §4: "often missing from the first search, so gflow searches up to 3×");
      // the next search, after a growing pause, is the only probe.
      if (misses < plan.searches) await sleep(400 * misses, ctx.signal);
      continue;
    }
    // The option is found again by its key at the click: the list may have re-rendered since.
    const index = (await optionKeys(plan.named).catch(() => [] as string[])).indexOf(key);
    if (index < 0) {
      await eraseQuery(ctx, typed);
      moved += 1;
      if (moved > 3) misses += 1;
      continue;
    }
    const option = plan.named.nth(index);
    const vetoed = plan.veto === undefined ? undefined : await plan.veto(option, since);
    if (vetoed !== undefined) {
      tried.add(key);
      wrong.push(vetoed);
      await eraseQuery(ctx, typed);
      continue;
    }
    const added = await commitOption(ctx, option, before, plan.label);
    if (plan.accept(added)) return { kept: true, wrong, listed };
    tried.add(key);
    wrong.push(added.map((c) => `${c.type ?? 'untyped'}:${c.id || c.label}`).join('+'));
    await removeLastChip(ctx, before.length, plan.label, plan.lead);
  }
  return { kept: false, wrong, listed };
}

/**
 * Attaches a reference or a saved character as an `@` mention (bindOptions): `@` + the name's
 * first word, options named like the target first (exactly, or with their type word), each new chip
 * verified (chipMatches: type, and a character's entity id or a media chip's label). Nothing is
 * submitted unless the asked-for chip is bound. `lead` is what is typed before the `@` (a space at
 * the end of the prompt).
 */
export async function addMention(ctx: OpContext, target: MentionTarget, lead = ' '): Promise<void> {
  const label = `${target.referenceType === 'entity' ? 'the character ' : ''}${target.displayName}`;
  const name = target.displayName;
  const named = ctx.page.locator(OPTION).filter({ hasText: name });
  const byName = (keys: readonly string[]): string[] => [
    ...keys.filter((k) => optionNames(nameOfKey(k), name)),
    ...keys.filter((k) => !optionNames(nameOfKey(k), name)),
  ];
  const outcome = await bindOptions(ctx, {
    query: mentionQuery(name),
    lead,
    label,
    named,
    rank: target.referenceType === 'media' ? rankMedia(ctx, target, byName) : byName,
    searches: 3,
    ...(target.referenceType === 'media' ? { veto: mediaVeto(ctx, named, target) } : {}),
    accept: (added) => added.length === 1 && added[0] !== undefined && chipMatches(added[0], target),
  });
  if (outcome.kept) return;
  if (outcome.wrong.length > 0) {
    throw new ReferenceNotFoundError(
      `No @ picker option named ${name} binds the ${target.referenceType} ${target.id} (the options bound ${outcome.wrong.join(', ')}; those chips were removed). Nothing was submitted.`,
      { retryable: false, extensions: { reference_type: target.referenceType, reference_id: target.id } },
    );
  }
  throw new ReferenceNotFoundError(
    `The @ picker lists nothing named ${name} after three tries. Nothing was submitted.`,
    { extensions: { not_listed: true } },
  );
}

/**
 * A reference to attach. One that names an existing asset (in place: no upload) may carry a
 * `fallback` — an upload of its verified local file — used only when the picker does not list the
 * asset; the reference then becomes that upload (its `mediaId` and `displayName` are replaced, so
 * the submit guard checks the id that was really bound).
 */
export interface AttachableReference {
  displayName: string;
  mediaId: string;
  /** An existing asset attached in place (not an upload of this run): titles repeat, so its id decides among options. */
  inPlace?: boolean;
  fallback?: () => Promise<{ readonly displayName: string; readonly mediaId: string }>;
}

/** Whether a failed mention found nothing of that name at all (not a wrong chip): a fallback may help. */
export function notListed(error: unknown): boolean {
  return error instanceof ReferenceNotFoundError && error.extensions['not_listed'] === true;
}

/**
 * Runs `attach` for an in-place reference; when the picker lists nothing of its name and it carries
 * a fallback, uploads that file, makes the reference the upload and attaches again.
 */
export async function withUploadFallback(
  ctx: OpContext,
  ref: AttachableReference,
  picker: string,
  attach: () => Promise<void>,
): Promise<void> {
  try {
    await attach();
  } catch (error) {
    if (ref.fallback === undefined || !notListed(error)) throw error;
    ctx.logger.warn(`${picker} does not list the asset; uploading its local file instead`, { name: ref.displayName });
    const uploaded = await ref.fallback();
    ref.mediaId = uploaded.mediaId;
    ref.displayName = uploaded.displayName;
    ref.inPlace = false;
    delete ref.fallback;
    await attach();
  }
}

/** Attaches the references, then the saved characters, as `@` mentions at the end of the prompt. */
export async function attachMentions(
  ctx: OpContext,
  refs: ReadonlyArray<AttachableReference>,
  characters: ReadonlyArray<{ readonly displayName: string; readonly entityId: string }>,
): Promise<void> {
  for (const ref of refs)
    await withUploadFallback(ctx, ref, 'the picker', () =>
      addMention(ctx, { displayName: ref.displayName, id: ref.mediaId, referenceType: 'media' }),
    );
  for (const character of characters)
    await addMention(ctx, { displayName: character.displayName, id: character.entityId, referenceType: 'entity' });
}
