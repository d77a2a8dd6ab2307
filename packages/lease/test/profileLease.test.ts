// Cross-process behaviour of the profile lease, with real child processes (fixtures/holder.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CancelledError, ProfileLockedError, isGflowError } from '@gflow/errors';
import { type ProfileLease, acquireProfileLease } from '../src/index.js';
import { canonicalProfileDir, lockFileName } from '../src/lockPath.js';
import { type HolderProcess, killAllHolders, spawnHolder } from './holderProcess.js';

let home: string;
let locksDir: string;
let profileA: string;
let profileB: string;
const leases: ProfileLease[] = [];

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-lease-'));
  locksDir = path.join(home, 'locks');
  profileA = path.join(home, 'profile_alpha');
  profileB = path.join(home, 'profile_beta');
  fs.mkdirSync(profileA);
  fs.mkdirSync(profileB);
});

afterEach(async () => {
  await killAllHolders();
  for (const lease of leases.splice(0)) await lease.release();
  fs.rmSync(home, { recursive: true, force: true });
});

async function acquire(
  profileDir: string,
  waitSeconds = 0,
  extra: {
    pollMs?: number;
    signal?: AbortSignal;
    onWait?: (holder: { readonly pid: number } | undefined) => void;
  } = {},
) {
  const lease = await acquireProfileLease({
    locksDir,
    profileDir,
    profileName: path.basename(profileDir),
    waitSeconds,
    ...extra,
  });
  leases.push(lease);
  return lease;
}

/** Waits for a condition this test's own callbacks make true (state, not time). */
async function waitUntil(condition: () => boolean): Promise<void> {
  await new Promise<void>((resolve) => {
    const check = (): void => (condition() ? resolve() : void setTimeout(check, 5));
    check();
  });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

async function holding(profileDir: string, waitSeconds = 0): Promise<HolderProcess> {
  const holder = spawnHolder({ locksDir, profileDir, profileName: path.basename(profileDir), waitSeconds });
  expect(await holder.line('held')).toBe(`held ${holder.pid}`);
  return holder;
}

describe('acquireProfileLease across processes', () => {
  it('fails fast at wait 0 with ProfileLockedError (exit 11) naming the holder', async () => {
    const holder = await holding(profileA);

    const error = await rejection(acquire(profileA, 0));
    expect(error).toBeInstanceOf(ProfileLockedError);
    const locked = error as ProfileLockedError;
    expect(locked.exitCode).toBe(11);
    expect(locked.detail).toContain(`pid ${holder.pid}`);
    expect(locked.detail).toContain('profile "profile_alpha"');
    expect(locked.extensions['holder_pid']).toBe(holder.pid);

    // And a second real process is refused the same way, exiting 11.
    const contender = spawnHolder({ locksDir, profileDir: profileA, profileName: 'alpha', waitSeconds: 0 });
    expect(await contender.line('error')).toMatch(/^error profile-locked 11 /);
    expect((await contender.exited()).code).toBe(11);
  });

  it('waits while another process holds the profile and takes over when it releases', async () => {
    const events: string[] = [];
    const first = await holding(profileA);
    const second = spawnHolder({ locksDir, profileDir: profileA, profileName: 'alpha', waitSeconds: 60 });
    const waiting = await second.line('waiting');
    expect(JSON.parse(waiting.slice('waiting '.length))).toMatchObject({
      pid: first.pid,
      profileName: 'profile_alpha',
    });
    void second.line('held').then(() => events.push('second held'));

    await first.release();
    events.push('first released');
    expect(await second.line('held')).toBe(`held ${second.pid}`);
    expect(events).toEqual(['first released', 'second held']);

    // The new holder is the one named now.
    const error = await rejection(acquire(profileA, 0));
    expect((error as ProfileLockedError).detail).toContain(`pid ${second.pid}`);
  });

  it('tells a waiter each time the line moves: the first holder, then the one it waited behind next', async () => {
    const first = await holding(profileA);
    // Waits before this process does, so it goes first when the first holder releases.
    const second = spawnHolder({ locksDir, profileDir: profileA, profileName: 'alpha', waitSeconds: 60 });
    await second.line('waiting');
    const seen: Array<number | undefined> = [];
    const pending = acquire(profileA, 60, { pollMs: 20, onWait: (holder) => seen.push(holder?.pid) });
    await waitUntil(() => seen.length === 1);
    expect(seen).toEqual([first.pid]);

    await first.release();
    expect(await second.line('held')).toBe(`held ${second.pid}`);
    await waitUntil(() => seen.length === 2);
    expect(seen).toEqual([first.pid, second.pid]);

    await second.release();
    expect((await pending).released).toBe(false);
    expect(seen).toEqual([first.pid, second.pid]);
  });

  it('lets this process wait for a child holder and resolve once it releases', async () => {
    const holder = await holding(profileA);
    let waited = false;
    const pending = acquire(profileA, 60, { pollMs: 20, onWait: () => (waited = true) });
    await new Promise<void>((resolve) => {
      const check = (): void => (waited ? resolve() : void setTimeout(check, 5));
      check();
    });
    await holder.release();
    const lease = await pending;
    expect(lease.profileName).toBe('profile_alpha');
    expect(lease.released).toBe(false);
  });

  it('gives up after waitSeconds with ProfileLockedError', async () => {
    await holding(profileA);
    const error = await rejection(acquire(profileA, 0.3, { pollMs: 50 }));
    expect(error).toBeInstanceOf(ProfileLockedError);
    expect((error as ProfileLockedError).detail).toContain('after waiting 0.3 s');
  });

  it('frees the profile the moment its holder is SIGKILLed (no staleness wait), leaving the files in place', async () => {
    const holder = await holding(profileA);
    await expect(acquire(profileA, 0)).rejects.toBeInstanceOf(ProfileLockedError);

    holder.kill('SIGKILL');
    expect((await holder.exited()).signal).toBe('SIGKILL');
    // Free once the holder is gone, with no wait at all: the kernel dropped its lock with the process.
    const lease = await acquire(profileA, 0);

    // Nothing was unlinked; the lease is ours now and the record names us.
    expect(fs.existsSync(lease.lockPath)).toBe(true);
    const record = JSON.parse(fs.readFileSync(lease.lockPath.replace(/\.lock$/, '.holder.json'), 'utf8')) as {
      pid: number;
    };
    expect(record.pid).toBe(process.pid);
  });

  it('runs different profiles in parallel', async () => {
    const alpha = await holding(profileA);
    const beta = await holding(profileB);
    expect(alpha.child.exitCode).toBeNull();
    expect(beta.child.exitCode).toBeNull();
    const gamma = path.join(home, 'profile_gamma');
    const lease = await acquire(gamma, 0);
    expect(lease.lockPath).not.toBe(path.join(locksDir, lockFileName(canonicalProfileDir(profileA))));
    await expect(acquire(profileB, 0)).rejects.toBeInstanceOf(ProfileLockedError);
  });

  it('rejects a waiting acquire with CancelledError when the signal aborts', async () => {
    const holder = await holding(profileA);
    const controller = new AbortController();
    const error = await rejection(
      acquire(profileA, 3600, {
        pollMs: 20,
        signal: controller.signal,
        onWait: () => controller.abort(new Error('user hit ^C')),
      }),
    );
    expect(error).toBeInstanceOf(CancelledError);
    expect(((error as CancelledError).cause as Error).message).toBe('user hit ^C');

    // The cancelled attempt left no reservation behind.
    await holder.release();
    await expect(acquire(profileA, 0)).resolves.toMatchObject({ profileName: 'profile_alpha' });
  });

  it('never deletes or unlocks another holder’s lock when an old lease is released again', async () => {
    const mine = await acquire(profileA, 0);
    await mine.release();
    const holder = await holding(profileA);

    await mine.release();
    expect(mine.released).toBe(true);
    expect(fs.existsSync(mine.lockPath)).toBe(true);
    const error = await rejection(acquire(profileA, 0));
    expect(isGflowError(error) && error.code).toBe('profile-locked');
    expect((error as ProfileLockedError).detail).toContain(`pid ${holder.pid}`);
  });
});

describe('per-profile queue in front of the lease', () => {
  it('serialises concurrent calls on one profile in arrival order, each taking and releasing the lease', async () => {
    const { createKeyedQueue } = await import('../src/index.js');
    const queue = createKeyedQueue();
    const order: number[] = [];
    const calls = Array.from({ length: 12 }, (_, i) =>
      queue.run(canonicalProfileDir(profileA), async () => {
        const lease = await acquireProfileLease({
          locksDir,
          profileDir: profileA,
          profileName: 'alpha',
          waitSeconds: 0,
        });
        try {
          order.push(i);
          await new Promise((resolve) => setImmediate(resolve));
        } finally {
          await lease.release();
        }
      }),
    );
    await Promise.all(calls);
    expect(order).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });
});
