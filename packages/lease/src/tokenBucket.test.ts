import { describe, expect, it } from 'vitest';
import { ConfigurationError, RateLimitError } from '@gflow/errors';
import { createTokenBucket } from './tokenBucket.js';

function fakeClock(start = 1_000) {
  let time = start;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

describe('createTokenBucket', () => {
  it('starts full at 8, refuses the 9th take and says a token comes in 20 s', () => {
    const clock = fakeClock();
    const bucket = createTokenBucket({ now: clock.now });
    expect(bucket.capacity).toBe(8);
    expect(bucket.refillMs).toBe(20_000);
    expect(bucket.available()).toBe(8);
    for (let i = 0; i < 8; i += 1) expect(bucket.tryTake()).toEqual({ ok: true });
    expect(bucket.available()).toBe(0);
    expect(bucket.tryTake()).toEqual({ ok: false, retryAfterMs: 20_000 });
  });

  it('refills continuously: the wait shrinks with time and a token appears after 20 s', () => {
    const clock = fakeClock();
    const bucket = createTokenBucket({ now: clock.now });
    for (let i = 0; i < 8; i += 1) bucket.tryTake();
    clock.advance(5_000);
    expect(bucket.tryTake()).toEqual({ ok: false, retryAfterMs: 15_000 });
    clock.advance(14_999);
    expect(bucket.tryTake()).toEqual({ ok: false, retryAfterMs: 1 });
    clock.advance(1);
    expect(bucket.tryTake()).toEqual({ ok: true });
    expect(bucket.tryTake()).toEqual({ ok: false, retryAfterMs: 20_000 });
    clock.advance(50_000);
    expect(bucket.available()).toBe(2);
    expect(bucket.tryTake()).toEqual({ ok: true });
    expect(bucket.tryTake()).toEqual({ ok: true });
    expect(bucket.tryTake()).toEqual({ ok: false, retryAfterMs: 10_000 });
  });

  it('never holds more than its capacity after a long idle', () => {
    const clock = fakeClock();
    const bucket = createTokenBucket({ now: clock.now });
    bucket.tryTake();
    clock.advance(24 * 3_600_000);
    expect(bucket.available()).toBe(8);
    for (let i = 0; i < 8; i += 1) expect(bucket.tryTake().ok).toBe(true);
    expect(bucket.tryTake().ok).toBe(false);
  });

  it('takes its capacity and refill from options', () => {
    const clock = fakeClock();
    const bucket = createTokenBucket({ capacity: 2, refillMs: 1_500, now: clock.now });
    expect(bucket.tryTake().ok).toBe(true);
    expect(bucket.tryTake().ok).toBe(true);
    expect(bucket.tryTake()).toEqual({ ok: false, retryAfterMs: 1_500 });
    clock.advance(1_499);
    expect(bucket.available()).toBe(0);
    clock.advance(1);
    expect(bucket.available()).toBe(1);
  });

  it('ignores a clock that steps backwards instead of losing or minting tokens', () => {
    const clock = fakeClock(100_000);
    const bucket = createTokenBucket({ capacity: 1, now: clock.now });
    bucket.tryTake();
    clock.advance(-50_000);
    expect(bucket.tryTake()).toEqual({ ok: false, retryAfterMs: 20_000 });
    clock.advance(20_000);
    expect(bucket.tryTake()).toEqual({ ok: false, retryAfterMs: 20_000 });
    clock.advance(50_000);
    expect(bucket.tryTake().ok).toBe(true);
  });

  it('take() throws a retryable RateLimitError (exit 4) whose detail says when to retry', () => {
    const clock = fakeClock();
    const bucket = createTokenBucket({ capacity: 1, now: clock.now });
    bucket.take();
    clock.advance(7_500);
    const error = (() => {
      try {
        bucket.take();
        return undefined;
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(RateLimitError);
    const limited = error as RateLimitError;
    expect(limited.exitCode).toBe(4);
    expect(limited.retryableOverride).toBe(true);
    expect(limited.extensions).toMatchObject({ retry_after: 13, retry_after_ms: 12_500 });
    expect(limited.detail).toContain('Next one allowed in 13 s');
  });

  it('rejects a bad capacity or refill as configuration', () => {
    expect(() => createTokenBucket({ capacity: 0 })).toThrow(ConfigurationError);
    expect(() => createTokenBucket({ capacity: 1.5 })).toThrow(ConfigurationError);
    expect(() => createTokenBucket({ refillMs: 0 })).toThrow(ConfigurationError);
    expect(() => createTokenBucket({ refillMs: Number.NaN })).toThrow(ConfigurationError);
  });

  it('uses a monotonic clock by default', () => {
    const bucket = createTokenBucket({ capacity: 1 });
    expect(bucket.tryTake().ok).toBe(true);
    const refusal = bucket.tryTake();
    expect(refusal.ok).toBe(false);
    if (!refusal.ok) expect(refusal.retryAfterMs).toBeGreaterThan(0);
    if (!refusal.ok) expect(refusal.retryAfterMs).toBeLessThanOrEqual(20_000);
  });
});
