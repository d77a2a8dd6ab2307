// A batch's envelope from its steps' rows: how it ended is said the way a single prompt says it.
import type { TaskRecord } from '@gflow/catalog';
import { describe, expect, it } from 'vitest';
import { BATCH_RUN } from './batchRun.js';
import type { RunSteps } from './runExecution.js';
import type { BatchRunRequest } from './runRequest.js';

const request = {
  task_id: 'run-1',
  items: [{ prompt: 'a blue kite' }, { prompt: 'a green kite' }],
} as unknown as BatchRunRequest;

/** Steps whose rows completed with these envelopes, in order. */
function stepsOf(...results: Array<Record<string, unknown>>): RunSteps {
  const rows = new Map(
    results.map((result, i) => [i, { taskId: `step-${i}`, status: 'completed', result } as unknown as TaskRecord]),
  );
  return { rows, made: 0, pausesMs: [], stoppedAt: null, project: 'p-1', refused: new Map() };
}

const estimated = (credits: number) => ({ status: 'estimated', credits_quoted: credits, params: {} });
const completed = { status: 'completed', files: ['/x.png'], params: {} };

describe('a batch envelope', () => {
  it('a dry run of several prompts is estimated, as one prompt is, and its row completes', () => {
    const view = BATCH_RUN.view(request, stepsOf(estimated(0), estimated(2)), 'settled');
    expect(view).toMatchObject({ status: 'estimated', exit_code: 0, credits_quoted: 2 });
    expect(BATCH_RUN.succeeded(view)).toBe(true);
  });

  it('prompts that were made are completed; one made and one failed is partial', () => {
    expect(BATCH_RUN.view(request, stepsOf(completed, completed), 'settled').status).toBe('completed');
    const failed = { status: 'failed', error: { type: 'urn:gflow:error:timeout', title: 't' }, params: {} };
    const partial = BATCH_RUN.view(request, stepsOf(completed, failed), 'settled');
    expect(partial.status).toBe('partial');
    expect(BATCH_RUN.succeeded(partial)).toBe(false);
  });

  it('a run not settled is pending, whatever its steps said so far', () => {
    expect(BATCH_RUN.view(request, stepsOf(estimated(1), estimated(1)), 'running').status).toBe('pending');
  });
});
