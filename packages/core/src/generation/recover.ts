import type { TaskRecord } from '@gflow/catalog';
import type { FlowSession } from '@gflow/driver';
import { ReferenceNotFoundError, WireFormatError } from '@gflow/errors';
import { resolveProfile } from '../home/profiles.js';
import { withFlowSession } from '../runtime/flowSessions.js';
import type { ProgressEvent } from '../runtime/progressPhases.js';
import type { RuntimeServices } from '../runtime/runtimeServices.js';
import { type GenerationRequest, effectiveSettings, mediaKindOf, parseGenerationRequest } from './request.js';
import { recoveryOperation } from './operationRecord.js';
import { completedEnvelope, saveResults } from './save.js';
import type { GenerationResult } from './schemas.js';

export interface RecoverOptions {
  readonly claimant: string;
  readonly signal: AbortSignal;
  readonly onProgress?: ((event: ProgressEvent) => void) | undefined;
}

/** A step that may have been submitted but whose media cannot be named: never submitted again. */
function unconfirmed(row: TaskRecord, detail: string, listed: 'none' | 'ambiguous' | 'no-project'): WireFormatError {
  return new WireFormatError(
    `Step ${row.stepIndex ?? 0} may have been submitted, but ${detail} It is not submitted again (credits may have been spent).`,
    {
      retryable: false,
      remediationHint: `Look in the Flow project${row.checkpoint?.project_id ? ` ${row.checkpoint.project_id}` : ''}; if nothing is there, resume with resubmit_unconfirmed (it may spend again).`,
      extensions: { task_id: row.taskId, may_have_spent: true, unconfirmed: true, listed },
    },
  );
}

/** The media ids of a step's submit: recorded (the reply was read), else found in its project's listing. */
export async function namedMedia(
  runtime: RuntimeServices,
  session: FlowSession,
  row: TaskRecord,
  request: GenerationRequest,
): Promise<{ mediaIds: string[]; workflowIds: string[] }> {
  const listingSeconds = runtime.settings.recoveryListingSeconds;
  const checkpoint = row.checkpoint;
  const projectId = checkpoint?.project_id;
  if (!projectId) throw unconfirmed(row, 'its Flow project was never named.', 'no-project');
  if (checkpoint.media_ids.length > 0)
    return { mediaIds: [...checkpoint.media_ids], workflowIds: [...checkpoint.workflow_ids] };
  const known = runtime.catalog.assets.mediaIdsOfProject(request.input.profile, projectId);
  const found = await session.findSubmitted({
    projectId,
    kind: mediaKindOf(request),
    count: request.plan.count,
    knownMediaIds: known,
    prompt: request.expanded_prompt,
    since: Date.parse(checkpoint.submitting_at ?? row.updatedAt),
    timeoutMs: 90_000,
    ...(listingSeconds === undefined ? {} : { listedWithinMs: listingSeconds * 1000 }),
  });
  // Only the ids: the lookup's own `kind` ('found') is not the media's kind the follow takes.
  if (found.kind === 'found') return { mediaIds: found.mediaIds, workflowIds: found.workflowIds };
  if (found.kind === 'none') throw unconfirmed(row, 'its project lists nothing it made.', 'none');
  throw unconfirmed(
    row,
    `its project lists ${found.mediaIds.length} media it may have made (${found.mediaIds.join(', ')}).`,
    'ambiguous',
  );
}

/**
 * Recovers a step that may have been submitted and did not complete: its media named (recorded
 * ids, else its project's listing), followed in Flow to a state they can be downloaded in, then
 * saved as the step would have saved them; the step's row becomes `completed` (recovered). Nothing
 * is submitted. A step whose media cannot be named is refused (unconfirmed), never re-submitted.
 */
export async function recoverGeneration(
  runtime: RuntimeServices,
  row: TaskRecord,
  options: RecoverOptions,
): Promise<GenerationResult> {
  const request = parseGenerationRequest(row.payload, row.taskId);
  const settings = effectiveSettings(runtime.settings, request);
  const profile = resolveProfile(runtime.layout, { requested: request.input.profile });
  if (row.checkpoint?.operation_id == null)
    throw new ReferenceNotFoundError(`Step ${row.taskId} has no operation on record.`);
  const operationId = recoveryOperation(runtime.catalog, request, {
    taskId: row.taskId,
    operationId: row.checkpoint.operation_id,
    projectId: row.checkpoint.project_id,
  });
  const use = {
    signal: options.signal,
    onProgress: options.onProgress,
    facts: () => ({ operation: request.command, taskId: row.taskId, phase: 'recovering', mayHaveSpent: true }),
  };
  const result = await withFlowSession(runtime, profile, use, async (session) => {
    const named = await namedMedia(runtime, session, row, request);
    const generated = await session.followMedia({
      projectId: row.checkpoint?.project_id as string,
      kind: mediaKindOf(request),
      mediaIds: named.mediaIds,
      workflowIds: named.workflowIds,
      prompt: request.expanded_prompt,
      timeoutMs: settings.timeoutSeconds * 1000,
      signal: options.signal,
    });
    const progress = options.onProgress ?? (() => undefined);
    const ctx = {
      catalog: runtime.catalog,
      session,
      request,
      profile: profile.name,
      operationId,
      outputDir: settings.outputDir,
      signal: options.signal,
      progress,
    };
    const saved = await saveResults(ctx, generated);
    const sandbox = runtime.browserOverrides.sandbox === true;
    return { ...completedEnvelope(request, generated, saved, { sandbox, referenceUploaded: false }), recovered: true };
  });
  runtime.catalog.operations.recover(operationId, { flowProjectId: result.flow_project_id ?? null });
  await runtime.queue.recover(row.taskId, options.claimant, result);
  return result;
}
