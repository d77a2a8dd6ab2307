import type { CompletionSource } from './flowSchema.js';
import { readFlowResourceFile } from './flowFiles.js';

/** At most this many values go back per completion/complete (the SDK fills in total and hasMore). */
export const COMPLETION_CAP = 100;

/**
 * The candidate values of a completion source: inline `values`, or a file
 * (one value per line; blank lines and lines starting with # are ignored;
 * each line is trimmed), read once when the flow loads (inside the flow's
 * directory: readFlowResourceFile). Throws with the reason when the file cannot be read.
 */
export function loadCompletionValues(source: CompletionSource, flowFile: string): string[] {
  if ('values' in source) return [...source.values];
  return readFlowResourceFile(flowFile, source.resource)
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/**
 * The candidates matching what the user typed, case-insensitively: those that start with it first,
 * then those with a later word that does ("be" → "a beach at sunset"), each in declaration order;
 * all of them for an empty value. The one completion rule of the server (prompts, flows, catalog
 * ids); the caller (the SDK) returns the first 100 with `total` and `hasMore`.
 */
export function matchCompletion<T extends string>(values: readonly T[], typed: string | undefined): T[] {
  const prefix = (typed ?? '').trim().toLowerCase();
  if (prefix === '') return [...values];
  const starts = values.filter((value) => value.toLowerCase().startsWith(prefix));
  const words = values.filter(
    (value) =>
      !starts.includes(value) &&
      value
        .toLowerCase()
        .split(/\s+/)
        .slice(1)
        .some((w) => w.startsWith(prefix)),
  );
  return [...starts, ...words];
}
