// Public API of @gflow/lease: profile leases, the per-profile queue and the local rate limiter.
export { type AcquireProfileLeaseOptions, acquireProfileLease } from './acquireProfileLease.js';

export type { ProfileLease } from './profileLease.js';
export { type NamedLock, readNamedLockHolder, tryNamedLock } from './namedLock.js';
export type { LeaseActivity, LeaseHolder } from './holderRecord.js';
export { readLeaseHolders } from './leaseHolders.js';
export { describeLeaseHolder } from './profileLockedError.js';
export type { LeaseWanter } from './wantedMark.js';

// The in-process limits, also importable alone as @gflow/lease/limits (no SQLite).
export { type KeyedQueue, createKeyedQueue } from './limits.js';
export { type TokenBucket, createTokenBucket, rateLimitedError } from './limits.js';
