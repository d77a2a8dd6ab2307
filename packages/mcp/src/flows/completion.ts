import fs from 'node:fs';
import type { CompletionSource } from './flowSchema.js';
import { resolveFlowFile } from './flowFiles.js';

/** At most this many values go back per completion/complete (the SDK fills in total and hasMore). */
export const COMPLETION_CAP = 100;

/**
 * The candidate values of a completion source: inline `values`, or a file
 * (one value per line; blank lines and lines starting with # are ignored;
 * each line is trimmed), read once when the flow loads. Throws with the
 * reason when the file cannot be read.
 */
export function loadCompletionValues(source: CompletionSource, flowFile: string): string[] {
  if ('values' in source) return [...source.values];
  const file = resolveFlowFile(flowFile, source.resource);
  return fs
    .readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/**
 * The candidates matching what the user typed: a case-insensitive prefix
 * match, all of them for an empty value, in declaration order. The caller
 * (the SDK) returns the first 100 with `total` and `hasMore`.
 */
export function matchCompletion(values: readonly string[], typed: string | undefined): string[] {
  const prefix = (typed ?? '').toLowerCase();
  return prefix === '' ? [...values] : values.filter((value) => value.toLowerCase().startsWith(prefix));
}
