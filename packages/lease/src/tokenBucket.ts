import { ConfigurationError, RateLimitError } from '@gflow/errors';

export const DEFAULT_BUCKET_CAPACITY = 8;
export const DEFAULT_BUCKET_REFILL_MS = 20_000;

export interface TokenBucketOptions {
  /** Most tokens the bucket holds (a burst); default 8. */
  readonly capacity?: number;
  /** Time to refill one token, continuously; default 20 000 ms. */
  readonly refillMs?: number;
  /** Monotonic clock in ms; default performance.now. */
  readonly now?: () => number;
}

export type TakeResult = { readonly ok: true } | { readonly ok: false; readonly retryAfterMs: number };

export interface TokenBucket {
  readonly capacity: number;
  readonly refillMs: number;
  /** Takes one token, or says how long until the next one (ms, rounded up). */
  tryTake(): TakeResult;
  /** Takes one token or throws RateLimitError (retryable) whose detail says when to retry. */
  take(): void;
  /** Whole tokens available now. */
  available(): number;
}

/**
 * The local spend brake (one per process): a token bucket that starts full and refills
 * continuously on a monotonic clock. State is kept as "credit" in ms (tokens × refillMs),
 * so refill and take are exact on an integer clock.
 */
export function createTokenBucket(options: TokenBucketOptions = {}): TokenBucket {
  const capacity = options.capacity ?? DEFAULT_BUCKET_CAPACITY;
  const refillMs = options.refillMs ?? DEFAULT_BUCKET_REFILL_MS;
  const now = options.now ?? (() => performance.now());
  if (!Number.isSafeInteger(capacity) || capacity < 1) {
    throw new ConfigurationError(`Token bucket capacity must be a whole number ≥ 1; got ${String(capacity)}.`);
  }
  if (!Number.isFinite(refillMs) || refillMs <= 0) {
    throw new ConfigurationError(`Token bucket refill must be a positive number of ms; got ${String(refillMs)}.`);
  }
  const fullCredit = capacity * refillMs;
  let credit = fullCredit;
  let last = now();

  const refill = (): void => {
    const at = now();
    // A clock that steps back (it should not) adds nothing rather than removing tokens.
    if (at > last) credit = Math.min(fullCredit, credit + (at - last));
    last = Math.max(last, at);
  };

  const tryTake = (): TakeResult => {
    refill();
    if (credit >= refillMs) {
      credit -= refillMs;
      return { ok: true };
    }
    return { ok: false, retryAfterMs: Math.max(1, Math.ceil(refillMs - credit)) };
  };

  return {
    capacity,
    refillMs,
    tryTake,
    take: () => {
      const result = tryTake();
      if (!result.ok) throw rateLimitedError(result.retryAfterMs, capacity, refillMs);
    },
    available: () => {
      refill();
      return Math.floor(credit / refillMs);
    },
  };
}

/** The refusal of the local limiter: retryable, with `retry_after` in whole seconds. */
export function rateLimitedError(retryAfterMs: number, capacity: number, refillMs: number): RateLimitError {
  const seconds = Math.ceil(retryAfterMs / 1000);
  return new RateLimitError(
    `Local rate limit: ${capacity} generations per burst, then one every ${formatSeconds(refillMs)}. Next one allowed in ${seconds} s.`,
    {
      retryable: true,
      remediationHint: `gflow's own spend brake, not Flow: wait ${seconds} s (retry_after) for the next token, then retry.`,
      extensions: { retry_after: seconds, retry_after_ms: retryAfterMs },
    },
  );
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return Number.isInteger(seconds) ? `${seconds} s` : `${seconds.toFixed(1)} s`;
}
