import fs from 'node:fs';
import path from 'node:path';
import { BadParameterError } from '@gflow/errors';
import { MAX_BATCH_ITEMS } from '@gflow/core/surfaces';
import { PROFILE_FLAG, SANDBOX_FLAG, flag } from '../args/flagSpec.js';
import { defineLeaf } from '../framework/commandSpec.js';
import { generationInput } from './generationFlags.js';
import { bulkFlags, failFastOf, runBatchOperation, runFlags, runInput, spendFlags, spendInput } from './imageBulk.js';

export interface BatchEntry {
  readonly prompt: string;
  readonly count?: number;
  readonly aspect_ratio?: string;
  readonly model?: string;
}

const MAX_PROMPTS = MAX_BATCH_ITEMS;

/** A manifest's columns (TSV, in this order unless a header row says otherwise) and JSON keys. */
const COLUMNS = ['prompt', 'count', 'aspect_ratio', 'model'] as const;
type Column = (typeof COLUMNS)[number];
/** `text`, the older name of the prompt column, is still read. */
const columnOf = (name: string): Column | undefined => {
  const key = name.trim().toLowerCase();
  return key === 'text' ? 'prompt' : (COLUMNS as readonly string[]).includes(key) ? (key as Column) : undefined;
};

const refuse = (message: string): never => {
  throw new BadParameterError(message, { extensions: { parameter: 'manifest' } });
};

function entryOf(cells: Partial<Record<Column, string | number>>): BatchEntry {
  const { prompt, count, aspect_ratio: aspect, model } = cells;
  return {
    prompt: String(prompt ?? ''),
    ...(count === undefined || count === '' ? {} : { count: Number(count) }),
    ...(aspect === undefined || aspect === '' ? {} : { aspect_ratio: String(aspect) }),
    ...(model === undefined || model === '' ? {} : { model: String(model) }),
  };
}

/**
 * The TSV rows: `prompt<TAB>count<TAB>aspect_ratio<TAB>model`, blank lines and `#` comments
 * skipped. A first row whose every cell is a column name is a header: it names the columns (in
 * any order) and is not a prompt.
 */
function parseTsv(text: string): BatchEntry[] {
  const rows = text
    .split(/\r?\n/)
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => line.split('\t').map((cell) => cell.trim()));
  let order: readonly (Column | undefined)[] = COLUMNS;
  const first = rows[0];
  if (first && first.every((cell) => columnOf(cell) !== undefined)) {
    const named = first.map((cell) => columnOf(cell) as Column);
    const twice = named.find((c, i) => named.indexOf(c) !== i);
    if (twice) refuse(`The manifest's header names the ${twice} column twice.`);
    if (!named.includes('prompt'))
      refuse(`The manifest's header has no prompt column; its columns are ${COLUMNS.join(', ')}.`);
    order = named;
    rows.shift();
  }
  return rows.map((cells) =>
    entryOf(Object.fromEntries(order.flatMap((column, i) => (column ? [[column, cells[i]]] : [])))),
  );
}

/** The JSON entries: `{prompt, count?, aspect_ratio?, model?}` (`text` for prompt is accepted). */
function parseJson(text: string): BatchEntry[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return refuse('The batch manifest is not valid JSON.');
  }
  if (!Array.isArray(parsed))
    return refuse('A JSON batch manifest is an array of {prompt, count?, aspect_ratio?, model?}.');
  return parsed.map((entry: unknown, i) => {
    const where = `The manifest's entry ${i + 1}`;
    if (!entry || typeof entry !== 'object' || Array.isArray(entry))
      return refuse(`${where} is not an object {prompt, count?, aspect_ratio?, model?}.`);
    const record = entry as Record<string, unknown>;
    const unknown = Object.keys(record).find((key) => key !== 'text' && !(COLUMNS as readonly string[]).includes(key));
    if (unknown !== undefined)
      refuse(`${where}: unknown key ${JSON.stringify(unknown)}; known: ${COLUMNS.join(', ')} (text for prompt).`);
    if ('prompt' in record && 'text' in record) refuse(`${where} gives prompt or text, not both.`);
    const prompt = record['prompt'] ?? record['text'];
    if (typeof prompt !== 'string') refuse(`${where} has no prompt (a string).`);
    return entryOf({ ...(record as Partial<Record<Column, string | number>>), prompt: prompt as string });
  });
}

/** `.json` `[{prompt, count?, aspect_ratio?, model?}]`, else TSV (see parseTsv). */
export function parseBatchManifest(file: string, text: string): BatchEntry[] {
  const entries = file.toLowerCase().endsWith('.json') ? parseJson(text) : parseTsv(text);
  if (entries.length === 0 || entries.length > MAX_PROMPTS)
    refuse(`A batch holds 1–${MAX_PROMPTS} prompts; this one has ${entries.length}.`);
  return entries;
}

export const imageBatchCommand = defineLeaf({
  name: 'batch',
  description: `Generate up to ${MAX_PROMPTS} prompts from a .tsv or .json manifest, one after another in one session and one Flow project. Exit = the highest per-prompt code.`,
  operation: 'generateBatch',
  positionals: () => [
    {
      key: 'manifest',
      name: 'MANIFEST',
      required: true,
      description:
        'A .tsv (columns prompt, count, aspect_ratio, model; a first row naming them is a header) or a .json array of {prompt, count?, aspect_ratio?, model?}.',
    },
  ],
  flags: () => [
    PROFILE_FLAG,
    flag({
      key: 'count',
      aliases: ['n'],
      kind: 'number',
      valueHint: '1-4',
      description: 'Default count for entries without one.',
    }),
    flag({
      key: 'aspect',
      kind: 'enum',
      options: ['9:16', '16:9', '1:1', '4:3', '3:4'],
      defaultValue: '9:16',
      description: 'Default aspect for entries without one.',
    }),
    flag({
      key: 'project',
      kind: 'string',
      valueHint: 'PROJECT_ID',
      description: 'Generate every prompt into this project.',
    }),
    ...bulkFlags(),
    ...spendFlags(),
    ...runFlags(),
    flag({ key: 'out', kind: 'string', valueHint: 'DIR', description: 'Write the files flat into DIR.' }),
    SANDBOX_FLAG,
  ],
  examples: [
    'gflow image batch prompts.tsv',
    'gflow image batch shots.json --fail-fast --json',
    'gflow image batch shots.json --no-wait --idempotency-key shots-2026-12-03',
  ],
  async run(ctx, values) {
    const file = path.resolve(ctx.cwd, String(values['manifest']));
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      throw new BadParameterError('Cannot read the batch manifest.', { extensions: { parameter: 'manifest' } });
    }
    const entries = parseBatchManifest(file, text);
    const common = generationInput(
      Object.fromEntries(
        ['count', 'aspect', 'profile', 'project'].filter((k) => values[k] !== undefined).map((k) => [k, values[k]]),
      ),
      values,
      ctx,
    );
    const stem = typeof common['output'] === 'string' ? common['output'] : undefined;
    delete common['output'];
    return runBatchOperation(ctx, {
      ...common,
      items: entries.map((entry, i) => ({
        prompt: entry.prompt,
        ...(entry.count === undefined ? {} : { count: entry.count }),
        ...(entry.aspect_ratio ? { aspect: entry.aspect_ratio } : {}),
        ...(entry.model ? { model: entry.model } : {}),
        ...(stem ? { output: `${stem}-${i + 1}` } : {}),
      })),
      fail_fast: failFastOf(values),
      ...(typeof values['jitter'] === 'string' ? { jitter: values['jitter'] } : {}),
      ...spendInput(values),
      ...runInput(values),
    });
  },
});
