import { describe, expect, it } from 'vitest';
import { generationEnvelope } from '../generation/schemas.js';
import { FAILURE_STATUSES, RESULT_STATUSES, isFailureStatus } from './resultStatus.js';

describe('the result statuses', () => {
  it("are the generation envelope's status enum", () => {
    expect(generationEnvelope.shape.status.options).toEqual([...RESULT_STATUSES]);
  });

  it('say failure for every status but completed, estimated (a dry run) and pending, and for nothing that is not a status', () => {
    expect(RESULT_STATUSES.filter((s) => !isFailureStatus(s))).toEqual(['completed', 'estimated', 'pending']);
    expect([...FAILURE_STATUSES].sort()).toEqual([
      'cancelled',
      'error',
      'failed',
      'indeterminate',
      'invalid_tools',
      'rate_limited',
    ]);
    for (const value of ['ok', 'FAILED', undefined, null, 1, { status: 'failed' }])
      expect(isFailureStatus(value)).toBe(false);
  });
});
