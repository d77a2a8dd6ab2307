import type { Catalog } from '@gflow/catalog';
import {
  CancelledError,
  type GflowError,
  TransportTimeoutError,
  hasErrorCode,
  toErrorEnvelopeBody,
  toGflowError,
} from '@gflow/errors';
import type { Logger } from '../runtime/logger.js';
import type { RunFacts } from './progress.js';
import { type GenerationRequest, aspectOf, mediaKindOf } from './request.js';
import type { GenerationResult } from './schemas.js';

/**
 * A generation past GFLOW_CLI_TIMEOUT_SECONDS: before the submit nothing was sent (retryable);
 * after it credits may have been spent, so it is not, and the hint names what Flow already named.
 */
export function deadlineError(seconds: number, facts: Readonly<RunFacts>, cause?: unknown): TransportTimeoutError {
  const where = facts.phase ? ` (it stood in ${facts.phase})` : '';
  if (!facts.mayHaveSpent)
    return new TransportTimeoutError(
      `The generation did not reach its submit within GFLOW_CLI_TIMEOUT_SECONDS (${seconds} s)${where}; nothing was sent to Flow.`,
      {
        cause,
        retryable: true,
        remediationHint:
          'Retry once; if it stops in the same phase again, raise GFLOW_CLI_TIMEOUT_SECONDS or run gflow doctor.',
        extensions: { timeout_seconds: seconds, phase: facts.phase, may_have_spent: false },
      },
    );
  const media = facts.mediaIds;
  return new TransportTimeoutError(
    `No result within GFLOW_CLI_TIMEOUT_SECONDS (${seconds} s)${where}; it was already submitted, so credits may have been spent.`,
    {
      cause,
      retryable: false,
      remediationHint: media.length
        ? `Flow may still finish it: fetch it later with ${media.map((id) => `'gflow data download ${id}'`).join(' and ')} (spends nothing).`
        : 'Check the Flow project before retrying: credits may have been spent.',
      extensions: { timeout_seconds: seconds, phase: facts.phase, may_have_spent: true, flow_media_ids: [...media] },
    },
  );
}

/**
 * What a thrown failure is: past the deadline a timeout, whatever the driver was doing when its
 * signal fired; an aborted run a cancellation whatever the driver saw last (the browser may close
 * first), saying whether the submit had gone out.
 */
export function failureOf(
  thrown: unknown,
  stop: { readonly deadlinePassed: boolean; readonly aborted: boolean; readonly timeoutSeconds: number },
  facts: Readonly<RunFacts>,
): GflowError {
  const raised = stop.deadlinePassed ? deadlineError(stop.timeoutSeconds, facts, thrown) : toGflowError(thrown);
  if (!stop.aborted || hasErrorCode(raised, 'cancelled')) return raised;
  return new CancelledError(
    facts.mayHaveSpent
      ? 'Cancelled after the submit: credits may have been spent.'
      : 'Cancelled before the submit; nothing was sent to Flow.',
    { cause: raised },
  );
}

/**
 * Records the assets Flow named for a run that stopped before their files were written (status
 * `pending`), so `data download` can fetch them later by id. Never throws.
 */
export function catalogueNamedMedia(
  catalog: Catalog,
  logger: Logger,
  request: GenerationRequest,
  named: { profile: string; projectId: string; mediaIds: readonly string[]; operationId: number | undefined },
): void {
  try {
    for (const [i, mediaId] of named.mediaIds.entries()) {
      if (catalog.assets.getByMediaId(named.profile, mediaId)) continue;
      const asset = catalog.assets.record({
        profile: named.profile,
        flowMediaId: mediaId,
        kind: mediaKindOf(request),
        flowProjectId: named.projectId,
        model: request.plan.model ?? null,
        aspectRatio: aspectOf(request),
        status: 'pending',
      });
      if (named.operationId !== undefined) catalog.assets.link(named.operationId, asset.id, 'output', i);
    }
  } catch (error) {
    logger.warn('could not catalogue the media of a stopped job', {
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

/** The envelope of a run that did not complete: its settled status, what Flow named, the problem. */
export function failureEnvelope(
  request: GenerationRequest,
  settled: 'failed' | 'cancelled' | 'indeterminate',
  facts: Readonly<RunFacts>,
  error: GflowError,
  ledger: { credits_quoted?: number | null; credits_spent?: number | null },
): GenerationResult {
  return {
    status: settled,
    task_id: request.task_id,
    task_type: request.plan.mode,
    ...(facts.mediaIds[0] ? { flow_media_id: facts.mediaIds[0], flow_media_ids: [...facts.mediaIds] } : {}),
    ...(facts.projectId ? { flow_project_id: facts.projectId } : {}),
    ...ledger,
    error: toErrorEnvelopeBody(error, { flowProjectId: facts.projectId }),
  };
}
