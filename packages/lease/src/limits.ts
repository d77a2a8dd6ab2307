// @gflow/lease/limits: the in-process limits only (per-profile FIFO queue and
// token bucket), without the SQLite lease, for runtimes that start light.
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
export { abortableSleep } from './abortableSleep.js';
export {
  CLI_DEFAULT_LEASE_WAIT_SECONDS,
  SERVER_DEFAULT_LEASE_WAIT_SECONDS,
  type LeaseSurface,
  resolveLeaseWaitSeconds,
} from './waitPolicy.js';
