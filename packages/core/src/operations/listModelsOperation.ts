import { DEFAULT_I2V_VIDEO_MODEL, IMAGE_ASPECTS, IMAGE_MODELS, VIDEO_ASPECTS, VIDEO_MODELS } from '@gflow/flow-facts';
import { z } from 'zod';
import { defineOperation } from './operation.js';

const names = z.array(z.string());
/** One image model as `listModels` shows it (the flow-facts row, in snake case). */
const imageModelRow = z.object({
  name: z.string(),
  label: z.string(),
  aliases: names,
  ref_cap: z.number().int(),
  ref_cap_confirmed: z.boolean(),
  default: z.boolean(),
  on_flow_host: z.boolean(),
});
/** One video model as `listModels` shows it. */
const videoModelRow = z.object({
  name: z.string(),
  label: z.string(),
  aliases: names,
  ref_cap: z.number().int(),
  durations: z.array(z.number()),
  max_duration: z.number(),
  max_duration_with_end_frame: z.number(),
  resolutions: names,
});

export const listModels = defineOperation({
  name: 'listModels',
  mcpName: 'gflow_list_models',
  title: 'List models',
  description:
    'The image and video model catalog: per model its name, Flow menu label, accepted aliases, reference cap, default (image) or max duration (video), the video defaults per mode (i2v: Veo 3.1 - Lite; t2v/r2v: null, the model Flow’s composer has selected, recorded in the result), aspects and resolutions. Static: no profile, no browser, no spend.',
  kind: 'read',
  usesBrowser: false,
  usesCatalog: false,
  input: z.object({}),
  output: z.looseObject({
    status: z.literal('ok'),
    image: z.object({ aspects: names, counts: z.array(z.number().int()), models: z.array(imageModelRow) }),
    video: z.object({
      aspects: names,
      counts: z.array(z.number().int()),
      tiers: names,
      defaults: z.object({ t2v: z.string().nullable(), i2v: z.string().nullable(), r2v: z.string().nullable() }),
      models: z.array(videoModelRow),
    }),
  }),
  handler: async () => ({
    status: 'ok' as const,
    image: {
      aspects: [...IMAGE_ASPECTS],
      counts: [1, 2, 3, 4],
      models: IMAGE_MODELS.map((m) => ({
        name: m.name,
        label: m.label,
        aliases: [...m.aliases],
        ref_cap: m.refCap,
        ref_cap_confirmed: m.refCapConfirmed,
        default: m.default,
        on_flow_host: m.onFlowHost,
      })),
    },
    video: {
      aspects: [...VIDEO_ASPECTS],
      counts: [1, 2, 3, 4],
      tiers: ['fast', 'quality'],
      // With no model named: i2v runs on this one; t2v and r2v on the model Flow's composer has
      // selected (null), which the result then records (params.model, the catalog's media rows).
      defaults: { t2v: null, i2v: DEFAULT_I2V_VIDEO_MODEL, r2v: null },
      models: VIDEO_MODELS.map((m) => ({
        name: m.name,
        label: m.label,
        aliases: [...m.aliases],
        ref_cap: m.refCap,
        durations: [...m.durations],
        max_duration: m.maxDuration,
        max_duration_with_end_frame: m.maxDurationWithEndFrame,
        resolutions: [...m.resolutions],
      })),
    },
  }),
});
