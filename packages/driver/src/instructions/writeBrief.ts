import type { BrowserContext, Page } from 'playwright-core';
import { ConfigurationError, ReferenceNotFoundError, UiSelectorDriftError, WireFormatError } from '@gflow/errors';
import type { PickerRow } from '../characters/characterRows.js';
import { readUploadable } from '../composer/uploads.js';
import { projectUrl } from '../flow/hosts.js';
import { withScratchPage } from '../session/scratchPage.js';
import {
  type Brief,
  type BriefCard,
  type BriefChange,
  type NewCard,
  applyBriefChange,
  diffBriefs,
  sameContent,
} from './brief.js';
import { BriefPanel, type PanelWait } from './panel.js';
import { type BriefOptions, readBriefInPage, waitForPanel } from './readBrief.js';

export interface BriefWrite {
  /** The brief as read live before the change. */
  readonly before: Brief;
  /** The card set gflow asked for (ids of untouched cards kept; uploads named by their new media ids). */
  readonly intended: Brief;
  /** The brief as Flow shows it after the write and a reload: the same as `intended`. */
  readonly after: Brief;
}

const sameTitle = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

/** What one change takes in the panel, planned before the first click. */
interface Plan {
  readonly remove: readonly BriefCard[];
  readonly edit: ReadonlyArray<{
    readonly live: BriefCard;
    readonly want: BriefCard;
    readonly files: readonly string[];
  }>;
  readonly add: ReadonlyArray<{ readonly want: BriefCard; readonly files: readonly string[] }>;
  readonly master: boolean | null;
}

const cardsOf = (change: BriefChange): readonly NewCard[] =>
  change.op === 'add' ? [change.card] : change.op === 'apply' ? change.cards : [];

function withCards(change: BriefChange, cards: readonly NewCard[]): BriefChange {
  if (change.op === 'add') return { op: 'add', card: cards[0] as NewCard };
  if (change.op === 'apply') return { op: 'apply', cards };
  return change;
}

/**
 * Changes a project's brief through its panel, the way a person does ([U]: panel.ts): add /
 * set-enabled / remove / toggle-mode / apply (apply replaces the set: removes the cards not wanted,
 * edits the kept ones — a title that matches keeps its card and id — and adds the rest). gflow
 * sends no request of its own; the page saves. Before the first click it checks what it can
 * locally and on the page: the selector (an ambiguous title is ConfigurationError 11, a missing one
 * 32), local files (≤ 20 MB, image magic), every reference (a name to the project's character id;
 * unknown: ReferenceNotFoundError 32), and the controls it needs (UiSelectorDriftError 23). After
 * the change it reloads the editor and compares the brief Flow shows with the intended one; any
 * difference is WireFormatError (7, not retryable) carrying both, the cards left as Flow shows them.
 */
export async function changeBrief(
  context: BrowserContext,
  options: BriefOptions & { change: BriefChange },
): Promise<BriefWrite> {
  const wait: PanelWait = { signal: options.signal, timeoutMs: options.timeoutMs ?? 30_000 };
  return withScratchPage(context, projectUrl(options.projectId), { ...wait, what: 'changing the brief' }, (page) =>
    changeInPage(page, wait, options.change),
  );
}

async function changeInPage(page: Page, wait: PanelWait, change: BriefChange): Promise<BriefWrite> {
  const before = await readBriefInPage(page, wait);
  assertWritable(before);
  // Selectors and titles first (nothing clicked yet): 11 for an ambiguous title, 32 for a missing one.
  applyBriefChange(before, withCards(change, cardsOf(change).map(unresolved)));
  for (const card of cardsOf(change)) for (const file of card.image_files ?? []) await readUploadable(file);
  const panel = new BriefPanel(page, wait);
  const resolved = withCards(change, await resolveReferences(panel, before, cardsOf(change)));
  const planned = applyBriefChange(before, resolved);
  const plan = planChange(before, planned, cardsOf(change));
  await assertControls(panel, before, plan);
  if (plan.remove.length + plan.edit.length + plan.add.length === 0 && plan.master === null)
    return { before, intended: planned, after: before };
  const uploaded = await execute(panel, plan);
  const intended: Brief = {
    enabled: planned.enabled,
    cards: planned.cards.map((c) => {
      const extra = uploaded.get(c.title.toLowerCase()) ?? [];
      return extra.length === 0 ? c : { ...c, image_media_ids: [...c.image_media_ids, ...extra] };
    }),
  };
  await page.reload({ waitUntil: 'domcontentloaded', timeout: wait.timeoutMs });
  const after = await readBriefInPage(page, wait);
  const differences = diffBriefs(intended, after);
  if (differences.length > 0) {
    const shown =
      differences.slice(0, 4).join('; ') + (differences.length > 4 ? `; and ${differences.length - 4} more` : '');
    throw new WireFormatError(
      `After the change, Flow's brief is not what gflow asked for: ${shown}. The instruction cards are left as Flow shows them (gflow does not undo or retry); \`gflow instructions list\` reads them.`,
      { retryable: false, extensions: { intended, live: after, differences } },
    );
  }
  return { before, intended, after };
}

/** A card whose character references are not resolved yet (for the selector check). */
function unresolved(card: NewCard): NewCard {
  return { ...card, character_ids: [...(card.character_ids ?? []), ...(card.characters ?? [])] };
}

/** A brief gflow can write: every card shows its stable id and a title. */
function assertWritable(brief: Brief): void {
  const bad = brief.cards.filter((c) => c.id === null || c.title === '');
  if (bad.length > 0)
    throw new UiSelectorDriftError(
      `The brief panel shows ${bad.length} card(s) without a stable id or title, so gflow cannot tell which card it would change; nothing was changed.`,
    );
}

/**
 * Checks each card's references against the project as Flow's own pickers list it (the page's
 * asset search reply), before anything changes: a media id must be listed; a character is an
 * entity id or a display name (case-insensitive; two characters of that name → 11; none → 32).
 * References a kept card already has are not looked up again. Answers the cards with
 * `character_ids` resolved. The pickers are opened in an add form that is dropped by a reload.
 */
async function resolveReferences(panel: BriefPanel, live: Brief, cards: readonly NewCard[]): Promise<NewCard[]> {
  const known = (card: NewCard) => live.cards.find((c) => sameTitle(c.title, card.title));
  const mediaToCheck = cards.flatMap((c) =>
    (c.image_media_ids ?? []).filter((id) => !known(c)?.image_media_ids.includes(id)),
  );
  const namesToCheck = cards.flatMap((c) =>
    [...(c.characters ?? []), ...(c.character_ids ?? [])].filter((r) => !known(c)?.character_ids.includes(r)),
  );
  if (mediaToCheck.length === 0 && namesToCheck.length === 0) return [...cards];
  const form = await panel.openForm(null);
  let images: PickerRow[] = [];
  let characters: PickerRow[] = [];
  if (mediaToCheck.length > 0) {
    images = await panel.openPicker(form, 'media');
    await panel.closePicker();
  }
  if (namesToCheck.length > 0) {
    characters = await panel.openPicker(form, 'entity');
    await panel.closePicker();
  }
  await panel.page.reload({ waitUntil: 'domcontentloaded', timeout: panel.wait.timeoutMs });
  await waitForPanel(panel.page, panel.wait);
  for (const id of mediaToCheck)
    if (!images.some((r) => r.id === id))
      throw new ReferenceNotFoundError(
        `Flow's image picker for instruction cards does not list the media id ${id}; nothing was changed.`,
        { extensions: { media_id: id } },
      );
  return cards.map((card) => {
    const have = known(card)?.character_ids ?? [];
    const refs = [...(card.character_ids ?? []), ...(card.characters ?? [])];
    const ids = refs.map((ref) => (have.includes(ref) ? ref : characterId(characters, ref)));
    return { ...card, character_ids: [...new Set(ids)], characters: [] };
  });
}

function characterId(rows: readonly PickerRow[], ref: string): string {
  if (rows.some((r) => r.id === ref)) return ref;
  const named = rows.filter((r) => r.name.trim().toLowerCase() === ref.trim().toLowerCase());
  if (named.length === 1 && named[0] !== undefined) return named[0].id;
  if (named.length > 1)
    throw new ConfigurationError(
      `${named.length} saved characters of the project are named ${JSON.stringify(ref)}; pass the entity id instead (gflow character list).`,
      { extensions: { candidates: named.map((r) => ({ entity_id: r.id, display_name: r.name })) } },
    );
  throw new ReferenceNotFoundError(
    `The project has no saved character with the id or name ${JSON.stringify(ref)} (gflow character list shows them); nothing was changed.`,
    { extensions: { character: ref } },
  );
}

function planChange(live: Brief, next: Brief, asked: readonly NewCard[]): Plan {
  const filesOf = (title: string) => asked.find((c) => sameTitle(c.title, title))?.image_files ?? [];
  const kept = new Set(next.cards.map((c) => c.id));
  const edit: Array<Plan['edit'][number]> = [];
  const add: Array<Plan['add'][number]> = [];
  for (const want of next.cards) {
    const was = want.id === null ? undefined : live.cards.find((c) => c.id === want.id);
    if (was === undefined) add.push({ want, files: filesOf(want.title) });
    else if (!sameContent(was, want) || was.enabled !== want.enabled || filesOf(want.title).length > 0)
      edit.push({ live: was, want, files: filesOf(want.title) });
  }
  return {
    remove: live.cards.filter((c) => c.id === null || !kept.has(c.id)),
    edit,
    add,
    master: next.enabled === live.enabled ? null : next.enabled,
  };
}

/** The controls the plan needs are there (checked before the first click). */
async function assertControls(panel: BriefPanel, live: Brief, plan: Plan): Promise<void> {
  const missing: string[] = [];
  if (plan.master !== null && (await panel.masterSwitch().count()) === 0) missing.push('the master switch');
  for (const card of [...plan.remove, ...plan.edit.map((e) => e.live)]) {
    if ((await (await panel.card({ id: card.id as string })).count()) !== 1)
      missing.push(`the card ${JSON.stringify(card.title)}`);
  }
  if (missing.length > 0)
    throw new UiSelectorDriftError(
      `The brief panel does not show ${missing.join(', ')} as gflow expects (of ${live.cards.length} cards read); nothing was changed.`,
    );
}

/** Does the plan in the panel; answers the media ids uploaded per card title (lower case). */
async function execute(panel: BriefPanel, plan: Plan): Promise<Map<string, string[]>> {
  const uploaded = new Map<string, string[]>();
  for (const card of plan.remove) await panel.remove(await panel.card({ id: card.id as string }));
  for (const { live, want, files } of plan.edit) {
    if (!sameContent(live, want) || files.length > 0) {
      const form = await panel.openForm(await panel.card({ id: live.id as string }));
      uploaded.set(want.title.toLowerCase(), await fillForm(panel, form, want, files));
      await panel.submit(form);
    }
    if (live.enabled !== want.enabled)
      await panel.flip(panel.cardSwitch(await panel.card({ id: live.id as string })), "a card's switch");
  }
  for (const { want, files } of plan.add) {
    const form = await panel.openForm(null);
    uploaded.set(want.title.toLowerCase(), await fillForm(panel, form, want, files));
    await panel.submit(form);
    if (!want.enabled) await panel.flip(panel.cardSwitch(await panel.card({ title: want.title })), "a card's switch");
  }
  if (plan.master !== null) await panel.flip(panel.masterSwitch(), 'the master switch');
  return uploaded;
}

/** Title, text and references of an open form; uploads the files and answers their media ids. */
async function fillForm(
  panel: BriefPanel,
  form: Awaited<ReturnType<BriefPanel['openForm']>>,
  want: BriefCard,
  files: readonly string[],
): Promise<string[]> {
  await panel.fill(form, want);
  const wanted = new Set([...want.image_media_ids, ...want.character_ids]);
  const present = await panel.formRefs(form);
  for (const ref of present) if (!wanted.has(ref.id)) await panel.dropRef(form, ref.id);
  const have = new Set(present.map((r) => r.id));
  const missing: Array<{ kind: 'media' | 'entity'; id: string }> = [
    ...want.image_media_ids.filter((id) => !have.has(id)).map((id) => ({ kind: 'media' as const, id })),
    ...want.character_ids.filter((id) => !have.has(id)).map((id) => ({ kind: 'entity' as const, id })),
  ];
  for (const ref of missing) {
    const rows = await panel.openPicker(form, ref.kind);
    const row = rows.find((r) => r.id === ref.id);
    if (row === undefined) {
      await panel.closePicker();
      throw new ReferenceNotFoundError(
        `Flow's reference picker no longer lists ${ref.kind === 'entity' ? 'the character' : 'the media id'} ${ref.id}; the instruction cards may be partly changed.`,
      );
    }
    await panel.pick(form, row);
  }
  const ids: string[] = [];
  for (const file of files) ids.push(await panel.upload(form, file));
  return ids;
}
