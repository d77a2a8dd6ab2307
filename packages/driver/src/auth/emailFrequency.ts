const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;

/**
 * The most frequent email address in a page's text (flow-wire §2 migrated fallback: the
 * myaccount page names its own account more often than any other address). Ties go to the
 * address seen first. Compared case-insensitively; returned lower-cased. Null when none.
 */
export function mostFrequentEmail(text: string): string | null {
  const counts = new Map<string, { count: number; first: number }>();
  let index = 0;
  for (const match of text.matchAll(EMAIL)) {
    const email = match[0].toLowerCase().replace(/\.+$/, '');
    const entry = counts.get(email);
    if (entry === undefined) counts.set(email, { count: 1, first: index });
    else entry.count += 1;
    index += 1;
  }
  let best: string | null = null;
  let bestEntry: { count: number; first: number } | null = null;
  for (const [email, entry] of counts) {
    if (
      bestEntry === null ||
      entry.count > bestEntry.count ||
      (entry.count === bestEntry.count && entry.first < bestEntry.first)
    ) {
      best = email;
      bestEntry = entry;
    }
  }
  return best;
}

/** Whether two account emails name the same account (case-insensitive, trimmed). */
export function sameAccount(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}
