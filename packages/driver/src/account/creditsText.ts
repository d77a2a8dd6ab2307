/**
 * Reads the balance out of the header's credits control text (its ligatures removed), e.g.
 * `1,234 credits`, `1.234 Credits`, `1 234 tín dụng`. The number is an integer in the page's
 * locale grouping; the unit word is translated and ignored.
 * Returns `{ credits }`, or `{ error }` when the text holds no number or an inexact one
 * (a compact `1.2K`, a decimal).
 */
export type CreditsReading = { readonly credits: number } | { readonly error: string };

const NUMBER = /\d(?:[\d.,'\u00a0\u202f ]*\d)?/;

export function parseCreditsText(text: string): CreditsReading {
  const clean = text.replace(/\s+/g, ' ').trim();
  const match = NUMBER.exec(clean);
  if (match === null) return { error: `no number in the credits control (${JSON.stringify(clean.slice(0, 40))})` };
  const token = match[0];
  const after = clean.slice(match.index + token.length).trimStart();
  if (/^[kKmMbB](?![a-zA-Z])/.test(after))
    return { error: `the credits control shows a rounded amount (${token}${after[0] ?? ''})` };
  if (/\d/.test(after)) {
    return { error: `the credits control shows more than one number (${JSON.stringify(clean.slice(0, 40))})` };
  }
  const groups = token.split(/[.,'\u00a0\u202f ]/);
  const first = groups[0] ?? '';
  const groupedOk =
    groups.length === 1 || (first.length >= 1 && first.length <= 3 && groups.slice(1).every((g) => g.length === 3));
  if (!groupedOk) return { error: `the credits amount ${JSON.stringify(token)} is not a whole number` };
  const credits = Number.parseInt(groups.join(''), 10);
  if (!Number.isSafeInteger(credits)) return { error: `the credits amount ${JSON.stringify(token)} is out of range` };
  return { credits };
}
