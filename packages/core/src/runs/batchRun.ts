import { exitCodeOf, fromProblem, type ProblemDetails } from '@gflow/errors';
import type { GenerationResult } from '../generation/index.js';
import type { GenerateBatchResult } from './runResults.js';
import { finalEnvelopeOf } from '../tasks/taskEnvelope.js';
import type { RunKind, RunSteps } from './runExecution.js';
import type { BatchRunRequest } from './runRequest.js';

export { type GenerateBatchResult, generateBatchResult } from './runResults.js';
type Item = GenerateBatchResult['items'][number];

/** The exit code a failed item's envelope carries (its problem document), 1 when it carries none. */
export function exitOfEnvelope(result: { readonly status: string; readonly error?: unknown }): number {
  if (result.status === 'completed' || result.status === 'pending' || result.status === 'estimated') return 0;
  const error = result.error as ProblemDetails | undefined;
  if (error !== undefined && typeof error === 'object' && typeof error.type === 'string')
    return exitCodeOf(fromProblem(error)) || 1;
  return 1;
}

function itemOf(request: BatchRunRequest, steps: RunSteps, index: number, settled: boolean): Item {
  const row = steps.rows.get(index);
  const prompt = request.items[index]?.prompt ?? '';
  const refused = steps.refused.get(index);
  if (refused !== undefined) return refused;
  if (row !== undefined && row.status === 'completed') return row.result as GenerationResult;
  if (row !== undefined && row.status !== 'pending' && row.status !== 'working') return finalEnvelopeOf(row);
  if (settled && (steps.stoppedAt === null || index >= steps.stoppedAt)) return { status: 'skipped', prompt };
  return { status: 'pending', ...(row ? { task_id: row.taskId } : {}), params: { prompt } };
}

function creditsOf(items: readonly Item[]): number | null | undefined {
  const quoted = items.flatMap((r) => {
    const credits = (r as GenerationResult).credits_quoted;
    return credits === undefined ? [] : [credits];
  });
  if (quoted.length === 0) return undefined;
  return quoted.includes(null) ? null : quoted.reduce<number>((a, b) => a + (b ?? 0), 0);
}

/** How a batch ended: a dry run whose every prompt was quoted is `estimated`, as a single prompt's is. */
function overallOf(items: readonly Item[], done: number, settled: boolean): GenerateBatchResult['status'] {
  if (!settled) return 'pending';
  if (items.length > 0 && items.every((r) => r.status === 'estimated')) return 'estimated';
  return done === items.length ? 'completed' : done === 0 ? 'failed' : 'partial';
}

/** A batch: every prompt a step in one project; a failed prompt stops it only with fail_fast. */
export const BATCH_RUN: RunKind<BatchRunRequest, GenerateBatchResult> = {
  stepWord: 'item',
  async askFor(request, index, steps) {
    const item = request.items[index] as BatchRunRequest['items'][number];
    const { project_name: projectName, ...rest } = item;
    const project = steps.project ?? undefined;
    return {
      kind: 'image',
      input: project ? { ...rest, project } : { ...rest, ...(projectName ? { project_name: projectName } : {}) },
    };
  },
  stopsAfterFailure: (request) => request.fail_fast,
  view(request, steps, status) {
    const settled = status === 'settled';
    const items = request.items.map((_, i) => itemOf(request, steps, i, settled));
    // A dry run estimates every prompt: `estimated` items count as done.
    const done = items.filter((r) => r.status === 'completed' || r.status === 'estimated').length;
    const failed = items.find(
      (r) => r.status !== 'completed' && r.status !== 'estimated' && r.status !== 'pending' && r.status !== 'skipped',
    );
    const credits = creditsOf(items);
    return {
      status: overallOf(items, done, settled),
      task_id: request.task_id,
      flow_project_id: steps.project,
      items,
      pauses_ms: [...steps.pausesMs],
      exit_code: Math.max(0, ...items.map(exitOfEnvelope)),
      made: steps.made,
      ...(credits === undefined ? {} : { credits_quoted: credits }),
      ...(failed !== undefined && 'error' in failed && failed.error !== undefined ? { error: failed.error } : {}),
    };
  },
  succeeded: (view) => view.status === 'completed' || view.status === 'estimated',
  firstError: (view) => view.error,
};
