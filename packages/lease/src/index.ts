// Public API of @gflow/lease: profile leases, the per-profile queue and the local rate limiter.
export {
  type AcquireProfileLeaseOptions,
  acquireProfileLease,
} from './acquireProfileLease.js';
export { withProfileLease } from './withProfileLease.js';
export type { ProfileLease, OnWantedOptions } from './profileLease.js';
export type { LeaseActivity, LeaseHolder } from './holderRecord.js';
export type { LeaseWanter } from './wantedMark.js';
export { canonicalProfileDir, lockFileName } from './lockPath.js';
export {
  type LeaseSurface,
  CLI_DEFAULT_LEASE_WAIT_SECONDS,
  SERVER_DEFAULT_LEASE_WAIT_SECONDS,
  MAX_LEASE_WAIT_SECONDS,
  DEFAULT_LEASE_POLL_MS,
  DEFAULT_WANTED_POLL_MS,
  DEFAULT_IDLE_HANDOFF_SECONDS,
  resolveLeaseWaitSeconds,
  validateLeaseWaitSeconds,
} from './waitPolicy.js';
// The in-process limits, also importable alone as @gflow/lease/limits (no SQLite).
export { type KeyedQueue, type KeyedQueueRunOptions, createKeyedQueue } from './limits.js';
export { type TokenBucket, type TokenBucketOptions, type TakeResult, createTokenBucket, rateLimitedError } from './limits.js';
export { DEFAULT_BUCKET_CAPACITY, DEFAULT_BUCKET_REFILL_MS } from './limits.js';
