import path from 'node:path';
import { UsageError } from '@gflow/errors';
import { flag } from '../args/flagSpec.js';
import type { ParsedValues } from '../args/parseArgv.js';
import type { FlagOverride } from '../args/zodFlags.js';
import type { LeafContext } from '../framework/leafContext.js';
import { defineGroup } from '../framework/commandSpec.js';
import { videoChainCommand, videoChainStatusCommand } from './videoChain.js';
import { videoStitchCommand } from './videoStitch.js';
import { operationLeaf } from '../framework/operationLeaf.js';
import { opSchema } from '../framework/opSchema.js';
import { renderResult } from '../output/table.js';
import { GENERATION_OVERRIDES, generationExtraFlags, generationInput, renderGeneration } from './generationFlags.js';

const videoSchema = opSchema('generateVideo');
const VIDEO_OVERRIDES: Readonly<Record<string, FlagOverride>> = { ...GENERATION_OVERRIDES, mode: { omit: true } };
const render = (result: unknown, _values: unknown, ctx: Parameters<typeof renderGeneration>[1]) =>
  renderGeneration(result, ctx);

const t2v = operationLeaf({
  name: 't2v',
  description: 'Text-to-video with Veo / Omni (spends Flow credits).',
  operation: 'generateVideo',
  schema: videoSchema,
  positionals: ['prompt'],
  fixed: { mode: 't2v' },
  overrides: {
    ...VIDEO_OVERRIDES,
    initial_frame: { omit: true },
    end_frame: { omit: true },
    reference_images: { omit: true },
  },
  extraFlags: generationExtraFlags,
  toInput: generationInput,
  render,
  handlesInterrupt: true,
  examples: [
    'gflow video t2v "waves at dusk, slow pan"',
    'gflow video t2v "city timelapse" --model veo-fast --duration 8 --aspect 16:9 -o city.mp4',
  ],
});

const i2v = operationLeaf({
  name: 'i2v',
  description:
    "Image-to-video from a start frame (and optional end frame): a local image or a generated image's media id.",
  operation: 'generateVideo',
  schema: videoSchema,
  positionals: ['prompt'],
  fixed: { mode: 'i2v' },
  overrides: {
    ...VIDEO_OVERRIDES,
    initial_frame: { valueHint: 'PATH_OR_MEDIA_ID', required: true },
    end_frame: { valueHint: 'PATH' },
    reference_images: { omit: true },
    reference_entities: { omit: true },
    reference_entity_names: { omit: true },
  },
  extraFlags: generationExtraFlags,
  toInput: generationInput,
  render,
  handlesInterrupt: true,
  examples: [
    'gflow video i2v "the fox starts running" --initial-frame fox.png',
    'gflow video i2v "day to night" --initial-frame day.png --end-frame night.png --model omni-flash',
  ],
});

const r2v = operationLeaf({
  name: 'r2v',
  description: 'Reference-to-video from reference images (--ref) and/or saved characters.',
  operation: 'generateVideo',
  schema: videoSchema,
  positionals: ['prompt'],
  fixed: { mode: 'r2v' },
  overrides: {
    ...VIDEO_OVERRIDES,
    initial_frame: { omit: true },
    end_frame: { omit: true },
    ui_mode: { omit: true },
    output: { omit: true },
    reference_images: {
      name: 'ref',
      valueHint: 'PATH_OR_MEDIA_ID',
      description: "Reference image: a local path or a generated image's media id (repeatable).",
    },
  },
  extraFlags: generationExtraFlags,
  toInput: generationInput,
  render,
  handlesInterrupt: true,
  examples: ['gflow video r2v "the two of them dance" --ref a.png --ref b.png --duration 8'],
});

/** The flags that make `video extend` a run of extensions (a movie of one scene over the source). */
const extendRunFlags = () => [
  flag({
    key: 'count',
    aliases: ['n'],
    kind: 'number',
    valueHint: 'N',
    description:
      'Extend N times in a row, each extension from the one before (a durable run: --resume-from continues it).',
  }),
  flag({
    key: 'stitch',
    kind: 'boolean',
    description:
      'Join the source and its extensions into one MP4 (-o names it; the repeated second is cut), with an OpenTimelineIO timeline beside it.',
  }),
  flag({
    key: 'resume_from',
    name: 'resume-from',
    kind: 'string',
    valueHint: 'MOVIE_ID',
    description: 'Continue a run of extensions (-n or --stitch): finished ones are not made again.',
  }),
];

/**
 * `video extend -n N` / `--stitch`: the extensions as a movie of one scene — the source as it is,
 * then N extensions in a row — so they are one durable run (each paid once, resumable) and the
 * stitch and timeline come from the movie's own finish.
 */
async function extendRun(ctx: LeafContext, values: ParsedValues) {
  const { runMovie } = await import('./movieCommands.js');
  const count = typeof values['count'] === 'number' ? values['count'] : 1;
  if (!Number.isInteger(count) || count < 1 || count > 10)
    throw new UsageError('-n takes a whole number of extensions from 1 to 10.', { extensions: { parameter: 'count' } });
  const stitch = values['stitch'] === true;
  if (!stitch && typeof values['output'] === 'string')
    throw new UsageError('-o names the stitched file: add --stitch, or use --out-dir for the extensions.', {
      extensions: { parameter: 'output' },
    });
  const model = typeof values['model'] === 'string' ? { model: values['model'] } : {};
  const source =
    typeof values['resume_from'] === 'string'
      ? { resume_from: values['resume_from'] }
      : {
          storyboard: {
            title: `Extensions of ${String(values['media_id'])}`,
            scenes: [
              {
                media_id: values['media_id'],
                extend: Array.from({ length: count }, () => ({ prompt: values['prompt'], ...model })),
              },
            ],
          },
        };
  const input = {
    ...source,
    stitch,
    ...(typeof values['output'] === 'string' ? { output: path.resolve(ctx.cwd, values['output']) } : {}),
    ...(typeof values['output_dir'] === 'string' ? { out_dir: path.resolve(ctx.cwd, values['output_dir']) } : {}),
    ...(values['overwrite'] === true ? { overwrite: true } : {}),
    ...(values['profile'] ? { profile: values['profile'] } : {}),
  };
  return runMovie(ctx, { ...values, yes: true }, input);
}

const EXTEND_KEYS = ['output', 'overwrite', 'output_dir', 'tools', 'profile', 'model', 'wait', 'prompt'] as const;

const extend = operationLeaf({
  name: 'extend',
  description:
    "Continue a finished clip from its last second with a new clip, in Flow's scene editor (Veo 3.1; spends Flow credits). The clip is a media id of this profile's catalog; join the two with `gflow video stitch … --overlap 1`.",
  operation: 'extendVideo',
  schema: opSchema('extendVideo'),
  positionals: ['media_id', 'prompt'],
  overrides: {
    ...Object.fromEntries(EXTEND_KEYS.map((key) => [key, GENERATION_OVERRIDES[key] ?? {}])),
    media_id: { omit: true },
    model: {
      valueHint: 'MODEL',
      description: 'veo_lite (default), veo_fast or veo_quality: the extend entry of that model.',
    },
    output: {
      ...GENERATION_OVERRIDES['output'],
      description: 'File to write (a directory is refused; an existing file is refused unless --force).',
    },
  },
  extraFlags: () => [...generationExtraFlags(), ...extendRunFlags()],
  toInput: generationInput,
  render,
  handlesInterrupt: true,
  optionalPositionals: true,
  run: (ctx, values, { single }) => {
    const asRun =
      (typeof values['count'] === 'number' && values['count'] !== 1) ||
      values['stitch'] === true ||
      values['resume_from'] !== undefined;
    if (asRun) return extendRun(ctx, values);
    if (values['media_id'] === undefined || values['prompt'] === undefined)
      throw new UsageError('Give the MEDIA_ID of the clip to extend and the PROMPT of what happens next.', {
        extensions: { parameter: 'media_id' },
      });
    return single(values);
  },
  examples: [
    'gflow video extend 7d1e0c2a-1b2c-4d3e-8f90-0a1b2c3d4e5f "the camera keeps moving forward"',
    'gflow video extend 7d1e0c2a-1b2c-4d3e-8f90-0a1b2c3d4e5f "the camera keeps moving" -n 2 --stitch -o long.mp4',
    'gflow video extend 7d1e0c2a-1b2c-4d3e-8f90-0a1b2c3d4e5f "night falls" --model veo-fast --dry-run',
  ],
});

const upscale = operationLeaf({
  name: 'upscale',
  description: 'Upscale or export a generated video: 1080p, the original 720p, or a 270p GIF (flow.google.com).',
  operation: 'upscaleVideo',
  schema: opSchema('upscaleVideo'),
  positionals: ['media_id'],
  overrides: { out_dir: { name: 'out', valueHint: 'DIR' } },
  examples: ['gflow video upscale 7d1e-media-id --scale 1080p'],
  render: (result) => ({ data: result, text: renderResult(result) }),
});

export const videoCommand = defineGroup({
  name: 'video',
  description: 'Generate and manage videos (Veo / Omni; video spends Flow credits).',
  children: {
    t2v,
    i2v,
    r2v,
    extend,
    upscale,
    stitch: videoStitchCommand,
    chain: videoChainCommand,
    'chain-status': videoChainStatusCommand,
  },
  examples: ['gflow video t2v "waves at dusk"', 'gflow video i2v "it comes alive" --initial-frame still.png'],
});
