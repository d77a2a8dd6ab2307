import { generateImageInput } from '@gflow/core';
import { defineGroup } from '../framework/commandSpec.js';
import { operationLeaf } from '../framework/operationLeaf.js';
import { opSchema } from '../framework/opSchema.js';
import { imageBatchCommand } from './imageBatch.js';
import {
  GENERATION_OVERRIDES,
  generationExtraFlags,
  generationInput,
  localOrMediaId,
  renderGeneration,
} from './generationFlags.js';

const imageSchema = (): unknown => generateImageInput;
/** The CLI's image default is portrait 9:16 (MCP's is 1:1). */
const IMAGE_ASPECT = {
  defaultValue: '9:16',
  description: 'Aspect ratio: 9:16 (CLI default), 16:9, 1:1, 4:3, 3:4.',
} as const;

const t2i = operationLeaf({
  name: 't2i',
  description: 'Text-to-image with Nano Banana (free daily quota, no credits).',
  operation: 'generateImage',
  schema: imageSchema,
  positionals: ['prompt'],
  overrides: { ...GENERATION_OVERRIDES, aspect: IMAGE_ASPECT, reference_images: { omit: true } },
  extraFlags: generationExtraFlags,
  toInput: generationInput,
  render: (result, _values, ctx) => renderGeneration(result, ctx),
  handlesInterrupt: true,
  examples: [
    'gflow image t2i "a red fox in fresh snow"',
    'gflow image t2i "city at night" -n 4 --aspect 16:9 --model nano-pro',
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
  examples: ['gflow image upload ./photo.jpg --project 1a2b3c'],
});

const upscale = operationLeaf({
  name: 'upscale',
  description: 'Upscale a generated image to 2K or 4K (free; 4K needs Google AI Ultra).',
  operation: 'upscaleImage',
  schema: opSchema('upscaleImage'),
  positionals: ['media_id'],
  overrides: { out_dir: { name: 'out', valueHint: 'DIR' } },
  examples: ['gflow image upscale 3f0c2a1e-media-id --scale 2k'],
});

export const imageCommand = defineGroup({
  name: 'image',
  description: 'Generate and manage images.',
  children: { t2i, i2i, upload, upscale, batch: imageBatchCommand },
  examples: ['gflow image t2i "a red fox in fresh snow" -n 2', 'gflow image i2i "in watercolour" --ref fox.png'],
});
