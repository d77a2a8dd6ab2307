import { BadParameterError, ConfigurationError, ReferenceNotFoundError } from '@gflow/errors';

/** One persistent Agent-mode instruction card of a project (seed gflow_instructions_*). */
export interface BriefCard {
  /** Flow's stable card id; null for a card Flow has not stored yet (or a page that shows none). */
  readonly id: string | null;
  readonly title: string;
  readonly enabled: boolean;
  readonly text: string;
  readonly image_media_ids: readonly string[];
  readonly character_ids: readonly string[];
}

/** A project's brief: the master switch and its cards. */
export interface Brief {
  readonly enabled: boolean;
  readonly cards: readonly BriefCard[];
}

export interface NewCard {
  readonly title: string;
  readonly text: string;
  readonly enabled?: boolean;
  /** Image references by Flow media id. */
  readonly image_media_ids?: readonly string[];
  /** Local image files to upload as image references (≤ 20 MB, PNG/JPEG/WebP/GIF). */
  readonly image_files?: readonly string[];
  /** Saved characters by entity id (what a live card carries). */
  readonly character_ids?: readonly string[];
  /** Saved characters by entity id or display name, resolved in the project before anything changes. */
  readonly characters?: readonly string[];
}

export type CardSelector = { readonly id: string } | { readonly title: string };

export type BriefChange =
  | { readonly op: 'add'; readonly card: NewCard }
  | { readonly op: 'set_enabled'; readonly select: CardSelector; readonly enabled: boolean }
  | { readonly op: 'remove'; readonly select: CardSelector }
  | { readonly op: 'toggle_mode'; readonly enabled: boolean }
  | { readonly op: 'apply'; readonly cards: readonly NewCard[] };

function card(input: NewCard, id: string | null): BriefCard {
  const title = input.title.trim();
  if (title === '') throw new BadParameterError('An instruction card needs a title.');
  return {
    id,
    title,
    enabled: input.enabled ?? true,
    text: input.text,
    image_media_ids: [...(input.image_media_ids ?? [])],
    character_ids: [...(input.character_ids ?? [])],
  };
}

const sameTitle = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The index of the one card a selector names: by stable id, or by title (case-insensitive). */
export function findCard(brief: Brief, select: CardSelector): number {
  const hits = brief.cards
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => ('id' in select ? c.id === select.id : sameTitle(c.title, select.title)));
  const what = 'id' in select ? `id ${select.id}` : `title ${JSON.stringify(select.title)}`;
  if (hits.length === 0) throw new ReferenceNotFoundError(`The brief has no card with ${what}.`);
  if (hits.length > 1 || hits[0] === undefined) {
    throw new ConfigurationError(`${hits.length} cards have the ${what}; pick one by id.`, {
      extensions: { candidates: hits.map(({ c }) => ({ id: c.id, title: c.title })) },
    });
  }
  return hits[0].i;
}

/**
 * The full card set after one change, computed from the live brief so every untouched card keeps
 * its id (each write sends the whole set back). `apply` replaces every card; a card whose title
 * matches a live one keeps that card's id. Adding a title that exists is refused.
 */
export function applyBriefChange(brief: Brief, change: BriefChange): Brief {
  switch (change.op) {
    case 'add':
      if (brief.cards.some((c) => sameTitle(c.title, change.card.title))) {
        throw new ConfigurationError(
          `The brief already has a card titled ${JSON.stringify(change.card.title.trim())}.`,
        );
      }
      return { enabled: brief.enabled, cards: [...brief.cards, card(change.card, null)] };
    case 'set_enabled': {
      const i = findCard(brief, change.select);
      return {
        enabled: brief.enabled,
        cards: brief.cards.map((c, j) => (j === i ? { ...c, enabled: change.enabled } : c)),
      };
    }
    case 'remove': {
      const i = findCard(brief, change.select);
      return { enabled: brief.enabled, cards: brief.cards.filter((_, j) => j !== i) };
    }
    case 'toggle_mode':
      return { enabled: change.enabled, cards: brief.cards };
    case 'apply': {
      const titles = change.cards.map((c) => c.title.trim().toLowerCase());
      if (new Set(titles).size !== titles.length) throw new BadParameterError('The cards to apply repeat a title.');
      return {
        enabled: brief.enabled,
        cards: change.cards.map((c) => card(c, brief.cards.find((live) => sameTitle(live.title, c.title))?.id ?? null)),
      };
    }
  }
}

const sameSet = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

/** Whether a live card already says what `want` asks (title, text, references; not the switch). */
export function sameContent(live: BriefCard, want: BriefCard): boolean {
  return (
    live.title === want.title &&
    live.text.trim() === want.text.trim() &&
    sameSet(live.image_media_ids, want.image_media_ids) &&
    sameSet(live.character_ids, want.character_ids)
  );
}

/**
 * How the live brief differs from the intended one, one sentence per difference (empty: the same).
 * Cards are matched by id, a new card (no id yet) by title; order is not compared (the panel
 * appends new cards and cannot reorder), references as sets, text with outer whitespace trimmed.
 */
export function diffBriefs(intended: Brief, live: Brief): string[] {
  const out: string[] = [];
  if (intended.enabled !== live.enabled)
    out.push(`the brief is switched ${live.enabled ? 'on' : 'off'}, not ${intended.enabled ? 'on' : 'off'}`);
  const unmatched = [...live.cards];
  const take = (i: number): BriefCard | undefined => (i < 0 ? undefined : unmatched.splice(i, 1)[0]);
  for (const want of intended.cards) {
    const got =
      want.id === null
        ? take(unmatched.findIndex((c) => sameTitle(c.title, want.title)))
        : take(unmatched.findIndex((c) => c.id === want.id));
    const name = JSON.stringify(want.title);
    if (got === undefined) {
      out.push(`card ${name} is missing`);
      continue;
    }
    if (got.id === null) out.push(`card ${name} has no id`);
    if (got.title !== want.title) out.push(`card ${name} is titled ${JSON.stringify(got.title)}`);
    if (got.text.trim() !== want.text.trim()) out.push(`card ${name} has the text ${JSON.stringify(clip(got.text))}`);
    if (got.enabled !== want.enabled) out.push(`card ${name} is ${got.enabled ? 'enabled' : 'disabled'}`);
    if (!sameSet(got.image_media_ids, want.image_media_ids))
      out.push(`card ${name} references the images [${got.image_media_ids.join(', ')}]`);
    if (!sameSet(got.character_ids, want.character_ids))
      out.push(`card ${name} references the characters [${got.character_ids.join(', ')}]`);
  }
  for (const extra of unmatched) out.push(`an unexpected card ${JSON.stringify(extra.title)} is there`);
  return out;
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
