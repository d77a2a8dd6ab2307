// The envelope a settled task ends with: what wait=true returns, what the task readers and the
// runs read, and what a generation's submit answers for a task that already ended. A module of
// its own, below the generation module: reading a task never loads the phases of a run.
import type { TaskRecord } from '@gflow/catalog';
import { CancelledError, type ProblemDetails, fromProblem, toErrorEnvelopeBody } from '@gflow/errors';
import type { GenerationResult } from '../generation/schemas.js';

/** The problem of a task that ended without one of its own (a queued task cancelled before it ran). */
function problemOf(record: TaskRecord): ProblemDetails & { message: string } {
  if (record.error) {
    const stored = record.error as unknown as ProblemDetails;
    return { ...toErrorEnvelopeBody(fromProblem(stored)), ...stored };
  }
  const error =
    record.status === 'indeterminate'
      ? new CancelledError(`Task ${record.taskId} was stopped after its submit: credits may have been spent.`)
      : new CancelledError(`Task ${record.taskId} was cancelled before it ran; nothing was sent to Flow.`);
  return toErrorEnvelopeBody(error);
}

/**
 * The envelope a settled task ends with, the one wait=true returns: the stored result once
 * completed; otherwise its status, the ids Flow named and the error (problem details + message).
 */
export function finalEnvelopeOf(record: TaskRecord): GenerationResult {
  if (record.status === 'completed' && record.result) return record.result as GenerationResult;
  const media = record.checkpoint?.media_ids ?? [];
  const status = record.status === 'completed' ? 'failed' : record.status;
  return {
    status: status === 'pending' || status === 'working' ? 'pending' : status,
    task_id: record.taskId,
    task_type: record.taskType,
    ...(media[0] ? { flow_media_id: media[0], flow_media_ids: [...media] } : {}),
    ...(record.checkpoint?.project_id ? { flow_project_id: record.checkpoint.project_id } : {}),
    error: problemOf(record),
  };
}
