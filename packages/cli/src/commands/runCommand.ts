import fs from 'node:fs';
import path from 'node:path';
import { BadParameterError } from '@gflow/errors';
import { MAX_BATCH_ITEMS } from '@gflow/core/surfaces';
import { parseRunConfig } from '@gflow/core/surfaces';
import { PROFILE_FLAG, SANDBOX_FLAG, flag } from '../args/flagSpec.js';
import { defineLeaf } from '../framework/commandSpec.js';
import { bulkFlags, failFastOf, runBatchOperation, spendFlags, spendInput } from './imageBulk.js';

/**
 * `gflow run --config FILE`: the original's run file (`{prompts[1..50]{text, aspect_ratio, model,
 * count, output_filename}}`, JSON or TOML), validated whole before anything is spent, run through
 * core's generateBatch (one session, one project, a pause between submits).
 */
export const runCommand = defineLeaf({
  name: 'run',
  description: `Run the image prompts of a config file (JSON or TOML, 1–${MAX_BATCH_ITEMS}), one after another in one session and one Flow project. Exit = the highest per-prompt code.`,
  operation: 'generateBatch',
  flags: () => [
    flag({
      key: 'config',
      kind: 'string',
      valueHint: 'FILE',
      required: true,
      description: 'The run file: {prompts: [{text, aspect_ratio?, model?, count?, output_filename?}]}.',
    }),
    flag({
      key: 'output_dir',
      name: 'output-dir',
      kind: 'string',
      valueHint: 'DIR',
      description:
        'Where output_filename is taken from (default: the current directory); prompts without one are written into DIR named by their media id.',
    }),
    flag({
      key: 'project',
      kind: 'string',
      valueHint: 'PROJECT_ID',
      description: 'Generate every prompt into this project (else one new project for the run).',
    }),
    ...bulkFlags(),
    ...spendFlags(),
    PROFILE_FLAG,
    SANDBOX_FLAG,
  ],
  examples: ['gflow run --config shots.json', 'gflow run --config story.toml --output-dir ./out --fail-fast --json'],
  handlesInterrupt: true,
  async run(ctx, values) {
    const file = path.resolve(ctx.cwd, String(values['config']));
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      throw new BadParameterError(
        `Cannot read --config ${String(values['config'])} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
        { extensions: { parameter: 'config' } },
      );
    }
    const prompts = parseRunConfig(file, text);
    const dir = typeof values['output_dir'] === 'string' ? path.resolve(ctx.cwd, values['output_dir']) : undefined;
    const base = dir ?? ctx.cwd;
    return runBatchOperation(ctx, {
      ...(values['profile'] ? { profile: values['profile'] } : {}),
      ...(values['project'] ? { project: values['project'] } : {}),
      aspect: '9:16',
      items: prompts.map((p) => ({
        prompt: p.text,
        ...(p.aspect_ratio ? { aspect: p.aspect_ratio } : {}),
        ...(p.model ? { model: p.model } : {}),
        ...(p.count === undefined ? {} : { count: p.count }),
        ...(p.output_filename ? { output: path.resolve(base, p.output_filename) } : {}),
      })),
      // The rest go flat into the directory, each named by its media id (as --out does).
      ...(dir ? { output_dir: dir } : {}),
      fail_fast: failFastOf(values),
      ...(typeof values['jitter'] === 'string' ? { jitter: values['jitter'] } : {}),
      ...spendInput(values),
    });
  },
});
