import { type AcquireProfileLeaseOptions, acquireProfileLease } from './acquireProfileLease.js';
import type { ProfileLease } from './profileLease.js';

/** Acquires the lease, runs `fn` with it and releases it however `fn` ends. */
export async function withProfileLease<T>(
  options: AcquireProfileLeaseOptions,
  fn: (lease: ProfileLease) => T | Promise<T>,
): Promise<T> {
  const lease = await acquireProfileLease(options);
  try {
    return await fn(lease);
  } finally {
    await lease.release();
  }
}
