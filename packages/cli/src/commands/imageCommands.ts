import { defineGroup } from '../framework/commandSpec.js';
import { operationLeaf } from '../framework/operationLeaf.js';
import { opSchema } from '../framework/opSchema.js';
import { renderResult } from '../output/table.js';
import { UsageError } from '@gflow/errors';
import { MAX_BATCH_ITEMS } from '@gflow/core/surfaces';
import { imageBatchCommand } from './imageBatch.js';
import {
  bulkFlags,
  collectPrompts,
  failFastOf,
  promptSourceFlags,
  refuseSinglePromptFlags,
  runBatchOperation,
} from './imageBulk.js';
import {
  GENERATION_OVERRIDES,
  generationExtraFlags,
  generationInput,
  localOrMediaId,
  renderGeneration,
} from './generationFlags.js';

const imageSchema = opSchema('generateImage');
/** The CLI's image default is portrait 9:16 (MCP's is 1:1). */
const IMAGE_ASPECT = {
  defaultValue: '9:16',
  description: 'Aspect ratio: 9:16 (CLI default), 16:9, 1:1, 4:3, 3:4.',
} as const;

/** Flags that name one prompt's result: refused with several prompts (exit 2). */
const SINGLE_PROMPT_ONLY = {
  output: '-o/--output',
  reference_entities: '--reference-entity',
  reference_entity_names: '--reference-entity-name',
  instructions: '-i/--instruction',
} as const;

const t2i = operationLeaf({
  name: 't2i',
  description: `Text-to-image with Nano Banana (free daily quota, no credits). Several prompts (quoted arguments, --prompts-file, --stdin; up to ${MAX_BATCH_ITEMS}; a one-word argument among several is refused as an unquoted prompt) run one after another in one session and one Flow project, with a pause between submits.`,
  operation: 'generateImage',
  schema: imageSchema,
  positionals: ['prompt'],
  variadicLast: true,
  optionalPositionals: true,
  overrides: { ...GENERATION_OVERRIDES, aspect: IMAGE_ASPECT, reference_images: { omit: true } },
  extraFlags: () => [...generationExtraFlags(), ...promptSourceFlags(), ...bulkFlags()],
  toInput: generationInput,
  render: (result, _values, ctx) => renderGeneration(result, ctx),
  handlesInterrupt: true,
  async run(ctx, values, base) {
    const prompts = await collectPrompts(values, ctx);
    const failFast = failFastOf(values);
    if (prompts.length === 1 && values['prompts_file'] === undefined && values['stdin'] !== true) {
      if (values['jitter'] !== undefined || failFast)
        throw new UsageError('--jitter and --fail-fast are for several prompts.', {
          extensions: { parameter: 'jitter' },
        });
      return base.single({ ...values, prompt: prompts[0] });
    }
    refuseSinglePromptFlags(values, SINGLE_PROMPT_ONLY);
    const common = generationInput(
      Object.fromEntries(
        [
          'model',
          'aspect',
          'count',
          'tools',
          'profile',
          'project',
          'project_name',
          'ui_mode',
          'dry_run',
          'max_credits',
          'overwrite',
          'idempotency_key',
        ]
          .filter((key) => values[key] !== undefined)
          .map((key) => [key, values[key]]),
      ),
      values,
      ctx,
    );
    // -o takes one prompt (refused above); --out DIR is the batch's flat output_dir (files named by media id).
    return runBatchOperation(ctx, {
      ...common,
      items: prompts.map((prompt) => ({ prompt })),
      fail_fast: failFast,
      ...(typeof values['jitter'] === 'string' ? { jitter: values['jitter'] } : {}),
      ...(values['wait'] === false ? { wait: false } : {}),
    });
  },
  examples: [
    'gflow image t2i "a red fox in fresh snow"',
    'gflow image t2i "city at night" -n 4 --aspect 16:9 --model nano-pro',
    'gflow image t2i "a fox" "a hare" "an owl" --json',
    'gflow image t2i --prompts-file shots.txt --fail-fast --out ./shots',
    'gflow image t2i "logo" -o logo.png --json',
    'gflow image t2i "poster" -t creative-director',
  ],
});

const i2i = operationLeaf({
  name: 'i2i',
  description: "Image-to-image from references (--ref: a local image or a generated image's media id).",
  operation: 'generateImage',
  schema: imageSchema,
  positionals: ['prompt'],
  overrides: {
    ...GENERATION_OVERRIDES,
    aspect: IMAGE_ASPECT,
    reference_images: {
      name: 'ref',
      valueHint: 'PATH_OR_MEDIA_ID',
      required: true,
      description: "Reference image: a local path or a generated image's media id (repeatable).",
    },
  },
  extraFlags: generationExtraFlags,
  toInput: generationInput,
  render: (result, _values, ctx) => renderGeneration(result, ctx),
  handlesInterrupt: true,
  examples: [
    'gflow image i2i "same scene, in winter" --ref photo.jpg',
    'gflow image i2i "combine them" --ref a.png --ref 3f0c…-media-id',
  ],
});

const upload = operationLeaf({
  name: 'upload',
  description: 'Upload a local image (PNG/JPEG/WebP/GIF, ≤ 20 MB) into a Flow project; prints its media id and size.',
  operation: 'uploadImage',
  schema: opSchema('uploadImage'),
  positionals: ['path'],
  toInput: (input, _values, ctx) =>
    typeof input['path'] === 'string' ? { ...input, path: localOrMediaId(ctx.cwd, input['path']) } : input,
  examples: ['gflow image upload ./photo.jpg --project 1a2b3c…'],
  render: (result) => ({ data: result, text: renderResult(result) }),
});

const upscale = operationLeaf({
  name: 'upscale',
  description: 'Upscale a generated image to 2K or 4K (free; 4K needs Google AI Ultra).',
  operation: 'upscaleImage',
  schema: opSchema('upscaleImage'),
  positionals: ['media_id'],
  overrides: { out_dir: { name: 'out', valueHint: 'DIR' } },
  examples: ['gflow image upscale 3f0c2a1e-media-id --scale 2k'],
  render: (result) => ({ data: result, text: renderResult(result) }),
});

export const imageCommand = defineGroup({
  name: 'image',
  description: 'Generate and manage images.',
  children: { t2i, i2i, upload, upscale, batch: imageBatchCommand },
  examples: ['gflow image t2i "a red fox in fresh snow" -n 2', 'gflow image i2i "in watercolour" --ref fox.png'],
});
