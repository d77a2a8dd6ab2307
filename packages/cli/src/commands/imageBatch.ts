import fs from 'node:fs';
import path from 'node:path';
import { BadParameterError, exitCodeOf, toErrorEnvelopeBody } from '@gflow/errors';
import { PROFILE_FLAG, SANDBOX_FLAG, flag } from '../args/flagSpec.js';
import { defineLeaf } from '../framework/commandSpec.js';
import { runOperation } from '../framework/operationLeaf.js';
import { renderTable } from '../output/table.js';
import { generationInput } from './generationFlags.js';

export interface BatchEntry {
  readonly text: string;
  readonly count?: number;
  readonly aspect_ratio?: string;
  readonly model?: string;
}

const MAX_PROMPTS = 5;

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
  description: `Generate up to ${MAX_PROMPTS} prompts from a .tsv or .json manifest, one after another. Exit = the highest per-prompt code.`,
  operation: 'generateImage',
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
    flag({
      key: 'fail_fast',
      name: 'fail-fast',
      kind: 'boolean',
      description: 'Stop at the first failure (default: continue).',
    }),
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
    const results: Array<Record<string, unknown>> = [];
    let worst = 0;
    for (const entry of entries) {
      try {
        const result = (await runOperation(ctx, 'generateImage', () =>
          generationInput(
            {
              prompt: entry.text,
              count: entry.count ?? values['count'] ?? 1,
              aspect: entry.aspect_ratio ?? values['aspect'],
              ...(entry.model ? { model: entry.model } : {}),
              ...(values['profile'] ? { profile: values['profile'] } : {}),
              ...(values['project'] ? { project: values['project'] } : {}),
            },
            values,
            ctx,
          ),
        )) as { status: string; files?: string[] };
        results.push({ prompt: entry.text, ...result });
        if (result.status !== 'completed') worst = Math.max(worst, 1);
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        worst = Math.max(worst, exitCodeOf(error));
        results.push({ prompt: entry.text, status: 'error', error: toErrorEnvelopeBody(error) });
        if (values['fail_fast'] === true) break;
      }
    }
    const table = renderTable(
      ['PROMPT', 'STATUS', 'FILES'],
      results.map((r) => [r['prompt'], r['status'], (r['files'] as string[] | undefined)?.join(' ')]),
    );
    return { data: { status: worst === 0 ? 'completed' : 'partial', results }, text: table, exitCode: worst };
  },
});
