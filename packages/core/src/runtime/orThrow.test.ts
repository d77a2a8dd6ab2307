import { describe, expect, it } from 'vitest';
import {
  CancelledError,
  ContentPolicyError,
  RateLimitError,
  UnknownError,
  hasErrorCode,
  isGflowError,
  toErrorEnvelopeBody,
} from '@gflow/errors';
import { FAILURE_STATUSES } from '../schemas/resultStatus.js';
import { failureOf, orThrow } from './orThrow.js';

const envelope = (status: string, error: Error, extra: Record<string, unknown> = {}) => ({
  status,
  error: toErrorEnvelopeBody(error),
  ...extra,
});

describe('failureOf / orThrow (issue 42)', () => {
  it('rebuilds the typed error of a failed envelope, with its task and project', async () => {
    const result = envelope('failed', new ContentPolicyError('Flow refused the prompt.'), {
      task_id: 't-1',
      flow_project_id: 'p-1',
    });
    const error = failureOf(result);
    expect(error).toBeInstanceOf(ContentPolicyError);
    expect(error?.detail).toBe('Flow refused the prompt.');
    expect(error?.extensions).toMatchObject({ task_id: 't-1', flow_project_id: 'p-1' });
    await expect(orThrow(Promise.resolve(result))).rejects.toBeInstanceOf(ContentPolicyError);
  });

  it.each(FAILURE_STATUSES)('throws for status %s', async (status) => {
    await expect(orThrow(envelope(status, new RateLimitError('slow down')))).rejects.toSatisfy(isGflowError);
  });

  it('keeps retryable and the class across the envelope (a cancellation stays a cancellation)', () => {
    expect(failureOf(envelope('rate_limited', new RateLimitError('slow down')))?.retryable).toBe(true);
    expect(hasErrorCode(failureOf(envelope('cancelled', new CancelledError('stopped'))), 'cancelled')).toBe(true);
  });

  it('returns anything that is not a failure as it is', async () => {
    for (const value of [
      { status: 'completed', files: ['a.png'] },
      { status: 'pending', task_id: 't' },
      { status: 'estimated' },
      { status: 'ok', task: { status: 'failed' } },
      'text',
      null,
    ])
      await expect(orThrow(value)).resolves.toBe(value);
  });

  it("a run of many that failed throws its first failed item's error; a partial one resolves", async () => {
    const items = [
      { status: 'completed', files: ['a.png'] },
      envelope('failed', new ContentPolicyError('item 2 refused')),
      envelope('rate_limited', new RateLimitError('item 3 slowed')),
    ];
    const error = failureOf({ status: 'failed', flow_project_id: 'p-2', items });
    expect(error).toBeInstanceOf(ContentPolicyError);
    expect(error?.extensions['flow_project_id']).toBe('p-2');
    const partial = { status: 'partial', items };
    await expect(orThrow(partial)).resolves.toBe(partial);
  });

  it('a failure status without an error document still throws, as an unknown error', () => {
    expect(failureOf({ status: 'indeterminate', task_id: 't-2' })).toBeInstanceOf(UnknownError);
  });
});
