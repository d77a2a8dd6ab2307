import { describe, expect, it } from 'vitest';
import { isRetryable } from '@gflow/errors';
import { readRefusal, refusalToError } from './refusal.js';

const ctx = { rpcId: 'ogiZ0b', afterSubmit: true };

describe('refusal frames', () => {
  it('maps 7 + PUBLIC_ERROR_UNUSUAL_ACTIVITY to WAF (10)', () => {
    const r = readRefusal([7, null, [['type.googleapis.com/google.rpc.ErrorInfo', ['PUBLIC_ERROR_UNUSUAL_ACTIVITY']]]]);
    expect(r).toEqual({ code: 7, reasons: ['PUBLIC_ERROR_UNUSUAL_ACTIVITY'] });
    const e = refusalToError(r!, ctx);
    expect(e.exitCode).toBe(10);
  });

  it('maps a bare 7 to access unavailable (39)', () => {
    expect(refusalToError(readRefusal([7])!, ctx).exitCode).toBe(39);
  });

  it.each([
    [16, 3],
    [8, 37],
    [3, 11],
    [13, 31],
    [5, 31],
    [99, 31],
  ])('maps status %i to exit %i', (code, exit) => {
    expect(refusalToError(readRefusal([code])!, ctx).exitCode).toBe(exit);
  });

  it('makes a post-submit app error not retryable, a pre-submit one retryable', () => {
    expect(isRetryable(refusalToError({ code: 13, reasons: [] }, ctx))).toBe(false);
    expect(isRetryable(refusalToError({ code: 13, reasons: [] }, { rpcId: 'x', afterSubmit: false }))).toBe(true);
  });

  it('reads no refusal from null and a malformed slot as 13', () => {
    expect(readRefusal(null)).toBeNull();
    expect(readRefusal(undefined)).toBeNull();
    expect(readRefusal('weird')).toEqual({ code: 13, reasons: [] });
    expect(readRefusal(16)).toEqual({ code: 16, reasons: [] });
  });
});
