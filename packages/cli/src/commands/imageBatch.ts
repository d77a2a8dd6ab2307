import fs from 'node:fs';
import path from 'node:path';
import { BadParameterError } from '@gflow/errors';
import { MAX_BATCH_ITEMS } from '@gflow/core';
import { PROFILE_FLAG, SANDBOX_FLAG, flag } from '../args/flagSpec.js';
import { defineLeaf } from '../framework/commandSpec.js';
import { generationInput } from './generationFlags.js';
import { bulkFlags, failFastOf, runBatchOperation, spendFlags, spendInput } from './imageBulk.js';

export interface BatchEntry {
  readonly text: string;
  readonly count?: number;
  readonly aspect_ratio?: string;
  readonly model?: string;
}

const MAX_PROMPTS = MAX_BATCH_ITEMS;

/** `.json` `[{text,count,aspect_ratio,model}]` or `.tsv` lines `prompt<TAB>count<TAB>aspect_ratio<TAB>model`. */
export function parseBatchManifest(file: string, text: string): BatchEntry[] {
  let entries: BatchEntry[];
  if (file.toLowerCase().endsWith('.json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new BadParameterError('The batch manifest is not valid JSON.', { extensions: { parameter: 'manifest' } });
    }
    if (
      !Array.isArray(parsed) ||
      !parsed.every((e) => e && typeof e === 'object' && typeof (e as { text?: unknown }).text === 'string')
    ) {
      throw new BadParameterError('A JSON batch manifest is an array of {text, count?, aspect_ratio?, model?}.', {
        extensions: { parameter: 'manifest' },
      });
    }
    entries = parsed as BatchEntry[];
  } else {
    entries = text
      .split(/\r?\n/)
      .filter((line) => line.trim() && !line.startsWith('#'))
      .map((line) => {
        const [prompt = '', count, aspect, model] = line.split('\t').map((c) => c.trim());
        return {
          text: prompt,
          ...(count ? { count: Number(count) } : {}),
          ...(aspect ? { aspect_ratio: aspect } : {}),
          ...(model ? { model } : {}),
        };
      });
  }
  if (entries.length === 0 || entries.length > MAX_PROMPTS) {
    throw new BadParameterError(`A batch holds 1–${MAX_PROMPTS} prompts; this one has ${entries.length}.`, {
      extensions: { parameter: 'manifest' },
    });
  }
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
      description: 'A .tsv (prompt, count, aspect_ratio, model) or .json manifest.',
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
    flag({ key: 'out', kind: 'string', valueHint: 'DIR', description: 'Write the files flat into DIR.' }),
    SANDBOX_FLAG,
  ],
  examples: ['gflow image batch prompts.tsv', 'gflow image batch shots.json --fail-fast --json'],
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
        prompt: entry.text,
        ...(entry.count === undefined ? {} : { count: entry.count }),
        ...(entry.aspect_ratio ? { aspect: entry.aspect_ratio } : {}),
        ...(entry.model ? { model: entry.model } : {}),
        ...(stem ? { output: `${stem}-${i + 1}` } : {}),
      })),
      fail_fast: failFastOf(values),
      ...(typeof values['jitter'] === 'string' ? { jitter: values['jitter'] } : {}),
      ...spendInput(values),
    });
  },
});
