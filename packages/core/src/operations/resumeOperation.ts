import { ReferenceNotFoundError } from '@gflow/errors';
import { z } from 'zod';
import { chainResult, generateBatchResult, isRunPayload, movieResult, resumeRun, stepCountOf } from '../runs/index.js';
import { RUN_ID, runWaitParam } from '../schemas/params.js';
import { defineOperation } from './operation.js';

/**
 * Continues any run (a batch, a chain, a movie) that ended — failed, cancelled, killed, Ctrl-C'd — by its
 * task id: the one resume for every kind of run, beside each run's own resume_from.
 */
export const resumeTask = defineOperation({
  name: 'resumeTask',
  mcpName: 'gflow_task_resume',
  title: 'Resume a run',
  description:
    "Continues a run (a batch, a chain or a movie) that ended — failed, cancelled, killed — by its task id: steps already done are kept, a step that may have been submitted is recovered by its recorded ids (never submitted twice), and only steps that never reached their submit are submitted (they may spend). A step Flow itself refused stays failed. A run still running in another process is refused. A movie whose clips are all made but whose stitch failed only stitches again. Returns the run's envelope (a batch's, a chain's or a movie's).",
  kind: 'spend',
  usesBrowser: true,
  task: 'optional',
  input: z.object({
    task_id: z
      .string()
      .trim()
      .regex(RUN_ID)
      .describe("The run's task id (a batch's task_id, a chain's chain_id, a movie's movie_id)."),
    wait: runWaitParam('run'),
    resubmit_unconfirmed: z
      .boolean()
      .default(false)
      .describe(
        'Your consent, after looking in the Flow project: a step that may have been submitted but whose project lists nothing it made (unconfirmed) is submitted again — it may spend twice. Needs wait=true.',
      ),
  }),
  output: z.union([generateBatchResult, chainResult, movieResult]),
  steps: async (input, tasks) => stepCountOf((await tasks.get(input.task_id))?.payload),
  handler: async (input, context) => {
    const record = await context.runtime.queue.get(input.task_id);
    const kind = record?.taskType;
    if (
      record === undefined ||
      !isRunPayload(record.payload) ||
      (kind !== 'batch' && kind !== 'chain' && kind !== 'story')
    )
      throw new ReferenceNotFoundError(
        `No run ${input.task_id} in this home's catalog (only a batch, a chain or a movie resumes).`,
        {
          extensions: { parameter: 'task_id' },
          remediationHint:
            "List the tasks with 'gflow task list' (gflow_task_list); a single generation is not resumed: it is recovered with 'gflow data download MEDIA_ID'.",
        },
      );
    const resubmit = input.resubmit_unconfirmed ? { resubmitUnconfirmed: true } : {};
    return resumeRun(context, input.task_id, { wait: input.wait, kind, ...resubmit });
  },
});
