// Public API of @gflow/lease: profile leases, the per-profile queue and the local rate limiter.
export {
  type AcquireProfileLeaseOptions,
  acquireProfileLease,
} from './acquireProfileLease.js';
export { withProfileLease } from './withProfileLease.js';
export type { ProfileLease } from './profileLease.js';
export type { LeaseHolder } from './holderRecord.js';
export { canonicalProfileDir, lockFileName } from './lockPath.js';
export {
  type LeaseSurface,
  CLI_DEFAULT_LEASE_WAIT_SECONDS,
  SERVER_DEFAULT_LEASE_WAIT_SECONDS,
  MAX_LEASE_WAIT_SECONDS,
  DEFAULT_LEASE_POLL_MS,
  resolveLeaseWaitSeconds,
  validateLeaseWaitSeconds,
} from './waitPolicy.js';
export { type KeyedQueue, type KeyedQueueRunOptions, createKeyedQueue } from './keyedQueue.js';
export {
  type TokenBucket,
  type TokenBucketOptions,
  type TakeResult,
  DEFAULT_BUCKET_CAPACITY,
  DEFAULT_BUCKET_REFILL_MS,
  createTokenBucket,
  rateLimitedError,
} from './tokenBucket.js';
