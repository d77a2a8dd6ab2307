import { UsageError } from '@gflow/errors';
import type { z } from 'zod';
import { isGenerationPayload, submitGeneration } from '../generation/index.js';
import {
  type GenerationResult,
  extendVideoInput,
  generateImageInput,
  generateVideoInput,
  generationResult,
} from '../generation/schemas.js';
import type { OperationContext } from '../runtime/operationContext.js';
import { awaitTask, isSettled } from '../tasks/awaitTask.js';
import { finalEnvelopeOf } from '../tasks/taskEnvelope.js';
import { defineOperation } from './operation.js';

/**
 * The task an earlier call with the same idempotency key made (an agent retrying after a timeout):
 * its envelope — followed to its end when the caller waits — never a second submit.
 */
function earlierGeneration(context: OperationContext, wait: boolean) {
  return async (profile: string, key: string): Promise<GenerationResult | undefined> => {
    const record = await context.runtime.queue.findByIdempotencyKey(profile, key);
    if (record === undefined) return undefined;
    if (record.parentTaskId !== null || !isGenerationPayload(record.payload))
      throw new UsageError(`idempotency_key names task ${record.taskId}, which is not a single generation.`, {
        extensions: { parameter: 'idempotency_key', task_id: record.taskId },
      });
    const settled =
      wait && !isSettled(record) ? await awaitTask(context.runtime, record.taskId, { signal: context.signal }) : record;
    if (!isSettled(settled)) return { status: 'pending', task_id: settled.taskId, task_type: settled.taskType };
    return finalEnvelopeOf(settled);
  };
}

const SPEND_NOTE =
  'Images draw on Flow\'s free daily per-model quota; video spends Flow credits. Checked before anything is sent: an invalid request spends nothing. Flow\'s credit quote is read before the click (credits_quoted; credits_spent when a balance read measures it); dry_run=true returns {status:"estimated", credits_quoted, balance, plan} without submitting; max_credits, GFLOW_CLI_MAX_CREDITS_PER_CALL and GFLOW_CLI_DAILY_CREDIT_BUDGET refuse an over-budget submit before the click (budget-exceeded, exit 40; an unreadable quote under a budget is refused too).';

export const generateImage = defineOperation({
  name: 'generateImage',
  mcpName: 'gflow_generate_image',
  title: 'Generate images',
  description: `Text-to-image or image-to-image (reference_images) with Nano Banana on Google Flow, in the profile's own browser; downloads the files and records them in the catalog. On an account whose Flow composer is agent-only, text-to-image goes through Flow's chat agent (aspect, count and model set in its settings for the run and restored; a credit confirmation approved only when it quotes what was asked; ui_arm:"agent-only", seed 0); references and characters are refused there (36) before anything is clicked. Returns {status:"completed", task_id, flow_project_id, flow_media_id, files[], seed, params} or {status:"failed", task_id, error}. ${SPEND_NOTE}`,
  kind: 'spend',
  usesBrowser: true,
  // wait=false writes its task row and answers at once; tasks/get, tasks/cancel and the task tools follow it.
  task: 'optional',
  input: generateImageInput,
  output: generationResult,
  handler: (input: z.output<typeof generateImageInput>, context) =>
    submitGeneration({ kind: 'image', input }, context, { earlier: earlierGeneration(context, input.wait) }),
});

export const generateVideo = defineOperation({
  name: 'generateVideo',
  mcpName: 'gflow_generate_video',
  title: 'Generate videos',
  description: `Veo / Omni video on Google Flow: t2v from text, i2v from initial_frame (and end_frame), r2v from reference_images or saved characters. Pass a generated image's media id as initial_frame to chain image → video. On an agent-only Flow composer, one-clip text-to-video goes through Flow's chat agent (as in gflow_generate_image); i2v, r2v, characters, count > 1, Omni 1.2 Flash, duration and resolution are refused there (36) before anything is clicked. ui_mode="agentic" is a 400. Returns the same task envelope as gflow_generate_image. ${SPEND_NOTE}`,
  kind: 'spend',
  usesBrowser: true,
  // wait=false writes its task row and answers at once; tasks/get, tasks/cancel and the task tools follow it.
  task: 'optional',
  input: generateVideoInput,
  output: generationResult,
  handler: (input: z.output<typeof generateVideoInput>, context) =>
    submitGeneration({ kind: 'video', input }, context, { earlier: earlierGeneration(context, input.wait) }),
});

export const extendVideo = defineOperation({
  name: 'extendVideo',
  mcpName: 'gflow_extend_video',
  title: 'Extend a video',
  description: `Continues a finished clip (media_id, this profile's, in the catalog) with a new clip from its last second, in Flow's scene editor the way a person does (the timeline's + → "Extend (Veo 3.1 …)"): the page itself submits, and gflow holds that submit until it names the clip's workflow id (Flow bills an extension of a media id and never makes it) and the frame window of its last second at 24 fps. The extension is a separate clip in the source's project, recorded with its lineage (gflow_get_media); join them with gflow_stitch_videos (overlap 1 s: the extension repeats the source's last second). Returns the same task envelope as gflow_generate_video. ${SPEND_NOTE}`,
  kind: 'spend',
  usesBrowser: true,
  task: 'optional',
  input: extendVideoInput,
  output: generationResult,
  handler: (input: z.output<typeof extendVideoInput>, context) =>
    submitGeneration({ kind: 'extend', input }, context, { earlier: earlierGeneration(context, input.wait) }),
});
