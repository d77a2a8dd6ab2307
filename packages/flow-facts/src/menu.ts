import type { MenuEntry } from './models.js';

/**
 * Model menu matching (flow-wire §4): by product-name substring, excluding entries that carry an
 * excluded word (`[Lower Priority]`, `Lite`), refusing 0 or ≥2 matches. A match must end at a
 * name boundary, so "Nano Banana 2" does not match "Nano Banana 2.1".
 */
export function labelMatches(text: string, label: string, exclude: readonly string[] = []): boolean {
  const hay = text.replace(/\s+/g, ' ').trim();
  const extra = hay.replace(label, '');
  if (exclude.some((word) => extra.includes(word) && !label.includes(word))) return false;
  let from = 0;
  for (;;) {
    const at = hay.indexOf(label, from);
    if (at < 0) return false;
    const next = hay.slice(at + label.length, at + label.length + 2);
    const before = at === 0 ? '' : hay.charAt(at - 1);
    const boundaryAfter = next === '' || !/^[\p{L}\p{N}]|^\.\d/u.test(next);
    const boundaryBefore = before === '' || !/[\p{L}\p{N}]/u.test(before);
    if (boundaryAfter && boundaryBefore) return true;
    from = at + 1;
  }
}

export type MenuPick =
  | { readonly kind: 'one'; readonly index: number }
  | { readonly kind: 'none' }
  | { readonly kind: 'many'; readonly indexes: readonly number[] };

export function pickMenuEntry(entries: readonly string[], label: string, exclude: readonly string[] = []): MenuPick {
  const hits = entries.flatMap((text, index) => (labelMatches(text, label, exclude) ? [index] : []));
  if (hits.length === 0) return { kind: 'none' };
  if (hits.length > 1) return { kind: 'many', indexes: hits };
  return { kind: 'one', index: hits[0] ?? 0 };
}

export type CandidatePick<T extends MenuEntry> =
  | { readonly kind: 'one'; readonly index: number; readonly candidate: T }
  | { readonly kind: 'none' }
  | { readonly kind: 'many'; readonly indexes: readonly number[]; readonly candidate: T };

/**
 * The entry to click for a model with several menu candidates (a model's `menu`): the first
 * candidate the menu offers exactly once wins; one offered more than once refuses (never guess),
 * so a later candidate is only tried when the earlier ones are absent.
 */
export function pickMenuCandidate<T extends MenuEntry>(
  entries: readonly string[],
  candidates: readonly T[],
): CandidatePick<T> {
  for (const candidate of candidates) {
    const pick = pickMenuEntry(entries, candidate.label, candidate.exclude);
    if (pick.kind === 'one') return { kind: 'one', index: pick.index, candidate };
    if (pick.kind === 'many') return { kind: 'many', indexes: pick.indexes, candidate };
  }
  return { kind: 'none' };
}

/** The candidate a text (the settings pane's model button) shows, if any. */
export function candidateShown<T extends MenuEntry>(text: string, candidates: readonly T[]): T | undefined {
  return candidates.find((c) => labelMatches(text, c.label, c.exclude));
}
