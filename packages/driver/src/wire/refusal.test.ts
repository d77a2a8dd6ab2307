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

describe('refusals that must not send the user the wrong way (flow-captures.md §6, §9)', () => {
  const frame = (code: number, reason?: string) =>
    readRefusal(
      reason === undefined ? [code] : [code, null, [['type.googleapis.com/google.rpc.ErrorInfo', [reason]]]],
    )!;

  it('an upscale refusal is the plan (22) or an unknown shape (7), never "this account cannot reach Flow" (39)', () => {
    expect(
      refusalToError(frame(7, 'PUBLIC_ERROR_UPSCALE_NOT_AVAILABLE'), { rpcId: 'SPrCad', afterSubmit: false }).exitCode,
    ).toBe(22);
    expect(refusalToError(frame(7), { rpcId: 'p0UkFb', afterSubmit: false }).exitCode).toBe(22);
    expect(refusalToError(frame(13), { rpcId: 'SPrCad', afterSubmit: false }).exitCode).toBe(7);
    expect(refusalToError(frame(3, 'INVALID_ARGUMENT'), { rpcId: 'SPrCad', afterSubmit: false }).exitCode).toBe(7);
    expect(refusalToError(frame(16), { rpcId: 'SPrCad', afterSubmit: false }).exitCode).toBe(3);
  });

  it('content policy only when the refusal names a policy', () => {
    expect(
      refusalToError(frame(3, 'PUBLIC_ERROR_CONTENT_POLICY_VIOLATION'), { rpcId: 'ogiZ0b', afterSubmit: true })
        .exitCode,
    ).toBe(5);
    expect(
      refusalToError(frame(3, 'PUBLIC_ERROR_INVALID_ASPECT_RATIO'), { rpcId: 'ogiZ0b', afterSubmit: true }).exitCode,
    ).toBe(11);
  });
});
