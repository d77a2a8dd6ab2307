// The cooperative hand-off (issue 27): a waiter leaves a wanted mark beside the lock, a holder that
// watches (ProfileLease.onWanted) gives way when it is idle and finishes its job first when busy.
// Real child processes (fixtures/holder.ts) hold and wait; the default poll intervals are used.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProfileLockedError } from '@gflow/errors';
import { type LeaseWanter, type ProfileLease, acquireProfileLease } from '../src/index.js';
import { canonicalProfileDir, lockFileName } from '../src/lockPath.js';
import { type HolderProcess, killAllHolders, spawnHolder } from './holderProcess.js';

let home: string;
let locksDir: string;
let profileA: string;
let profileB: string;
const leases: ProfileLease[] = [];

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-handoff-'));
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
  waitSeconds: number,
  extra: { pollMs?: number; idleHandoffSeconds?: number } = {},
): Promise<ProfileLease> {
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

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

async function holding(
  profileDir: string,
  mode: 'plain' | 'handoff' | 'busy',
  waitSeconds = 0,
): Promise<HolderProcess> {
  const holder = spawnHolder({ locksDir, profileDir, profileName: path.basename(profileDir), waitSeconds, mode });
  expect(await holder.line('held')).toBe(`held ${holder.pid}`);
  return holder;
}

const lockBase = (profileDir: string): string => lockFileName(canonicalProfileDir(profileDir)).replace(/\.lock$/, '');
/** The wanted marks beside a profile's lock. */
const marks = (profileDir: string): string[] =>
  fs.existsSync(locksDir)
    ? fs.readdirSync(locksDir).filter((n) => n.startsWith(`${lockBase(profileDir)}.wanted-`))
    : [];
const wanterIn = (line: string): LeaseWanter => JSON.parse(line.slice('wanted '.length)) as LeaseWanter;

/** Writes a mark the way a waiter does, for a given pid, optionally aged. */
function plantMark(profileDir: string, pid: number, options: { ageMs?: number; name?: string } = {}): string {
  fs.mkdirSync(locksDir, { recursive: true, mode: 0o700 });
  const createdAtMs = Date.now() - (options.ageMs ?? 0);
  const file = path.join(
    locksDir,
    options.name ?? `${lockBase(profileDir)}.wanted-${pid}-planted${Math.random().toString(16).slice(2, 8)}`,
  );
  const json = {
    version: 1,
    pid,
    hostname: os.hostname(),
    created_at: new Date(createdAtMs).toISOString(),
    created_at_ms: createdAtMs,
    surface: 'planted',
  };
  fs.writeFileSync(file, JSON.stringify(json), { mode: 0o600 });
  if (options.ageMs !== undefined) fs.utimesSync(file, createdAtMs / 1000, createdAtMs / 1000);
  return file;
}

describe('an idle holder gives way', () => {
  it('to a waiting process, through the wanted mark', async () => {
    const holder = await holding(profileA, 'handoff');
    // 60 s of wait allowed (a bound, not a measure): the holder's own lines below say it released because it was asked.
    const lease = await acquire(profileA, 60);
    expect(wanterIn(await holder.line('wanted'))).toMatchObject({ pid: process.pid, hostname: os.hostname() });
    expect(await holder.line('released')).toBe('released');
    expect((await holder.exited()).code).toBe(0);
    expect(lease.released).toBe(false);
    // The waiter removed its mark once it held the lease.
    expect(marks(profileA)).toEqual([]);
  });

  it('to a fail-fast acquire (wait 0) too, which waits for the hand-off instead of failing; with the grace off it fails at once', async () => {
    const holder = await holding(profileA, 'handoff');
    const refused = await rejection(acquire(profileA, 0, { idleHandoffSeconds: 0 }));
    expect(refused).toBeInstanceOf(ProfileLockedError);
    expect((refused as ProfileLockedError).detail).toContain(`gflow lease test, pid ${holder.pid}`);
    expect((refused as ProfileLockedError).detail).toContain('idle (a warm browser kept for its next call) since');
    expect((refused as ProfileLockedError).extensions).toMatchObject({
      holder_activity: 'idle',
      holder_surface: 'lease test',
    });
    expect(marks(profileA)).toEqual([]);
    expect(holder.child.exitCode).toBeNull();

    const lease = await acquire(profileA, 0);
    expect(lease.profileName).toBe('profile_alpha');
    expect(wanterIn(await holder.line('wanted')).pid).toBe(process.pid);
    expect((await holder.exited()).code).toBe(0);
  });
});

describe('a busy holder finishes its job first', () => {
  it('is refused at once at wait 0, and after the wait otherwise, naming the holder and its job', async () => {
    const holder = await holding(profileA, 'busy');
    const fast = await rejection(acquire(profileA, 0));
    expect(fast).toBeInstanceOf(ProfileLockedError);
    const detail = (fast as ProfileLockedError).detail;
    expect(detail).toContain(
      `in use by another process (gflow lease test, pid ${holder.pid}, profile "profile_alpha", since `,
    );
    expect(detail).toContain('busy with Generate images (test job) since ');
    expect(detail).not.toContain('hand the profile over');
    expect((fast as ProfileLockedError).extensions).toMatchObject({
      holder_pid: holder.pid,
      holder_activity: 'busy',
      holder_doing: 'Generate images (test job)',
    });
    // Failing fast left no mark (it never waited).
    expect(marks(profileA)).toEqual([]);

    const slow = await rejection(acquire(profileA, 1.5));
    expect(slow).toBeInstanceOf(ProfileLockedError);
    expect((slow as ProfileLockedError).detail).toMatch(
      /busy with Generate images \(test job\) since .*; still locked after waiting 1\.5 s\.$/,
    );
    // The holder saw the waiter (and kept working); the waiter took its mark away when it gave up.
    expect(wanterIn(await holder.line('wanted')).pid).toBe(process.pid);
    expect(marks(profileA)).toEqual([]);
    expect(holder.child.exitCode).toBeNull();
  });

  it('and hands the profile over when the job ends, to a process that waited through it', async () => {
    const holder = await holding(profileA, 'busy');
    let acquired = false;
    const pending = acquire(profileA, 60).then((lease) => {
      acquired = true;
      return lease;
    });
    expect(wanterIn(await holder.line('wanted')).pid).toBe(process.pid);
    expect(acquired).toBe(false);
    holder.send('idle');
    expect(await holder.line('released')).toBe('released');
    const lease = await pending;
    expect(lease.released).toBe(false);
    expect(marks(profileA)).toEqual([]);
  });

  it('does not keep the profile for its own next job while another process waits for it (no starvation)', async () => {
    const first = await acquire(profileA, 0);
    const waiter = spawnHolder({ locksDir, profileDir: profileA, profileName: 'profile_alpha', waitSeconds: 60 });
    await waiter.line('waiting');

    // This process's next job asks again the instant it gave the profile up: the waiter goes first.
    await first.release();
    const again = acquire(profileA, 60);
    const winner = await Promise.race([waiter.line('held').then(() => 'waiter'), again.then(() => 'next job')]);
    expect(winner).toBe('waiter');
    await waiter.release();
    expect((await again).released).toBe(false);
  });
});

describe('wanted marks seen by a holder', () => {
  it('ignores stale marks (dead pid, not refreshed, its own pid, a symlink) and reports a live one', async () => {
    const lease = await acquire(profileA, 0);
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
    const live = await holding(profileB, 'plain');
    plantMark(profileA, deadPid);
    plantMark(profileA, live.pid, { ageMs: 60_000 });
    plantMark(profileA, process.pid);
    const elsewhere = plantMark(profileB, live.pid);
    fs.symlinkSync(elsewhere, path.join(locksDir, `${lockBase(profileA)}.wanted-${live.pid}-symlink`));
    expect(marks(profileA)).toHaveLength(4);
    expect(lease.wanted()).toBeUndefined();

    const seen: LeaseWanter[] = [];
    lease.onWanted((wanter) => seen.push(wanter), { pollMs: 10 });
    const fresh = plantMark(profileA, live.pid);
    await waitFor(() => seen.length > 0);
    expect(seen).toEqual([expect.objectContaining({ pid: live.pid, surface: 'planted' })]);
    expect(lease.wanted()?.pid).toBe(live.pid);

    fs.unlinkSync(fresh);
    expect(lease.wanted()).toBeUndefined();
  });

  it('records whether the holder hands off, and stops watching on release', async () => {
    const lease = await acquire(profileA, 0);
    const holderPath = lease.lockPath.replace(/\.lock$/, '.holder.json');
    const record = (): Record<string, unknown> =>
      JSON.parse(fs.readFileSync(holderPath, 'utf8')) as Record<string, unknown>;
    expect(record()['hands_off']).toBeUndefined();
    const stop = lease.onWanted(() => undefined);
    expect(record()).toMatchObject({ hands_off: true });
    lease.setActivity({ state: 'busy', doing: 'a test job' });
    expect(record()).toMatchObject({ activity: 'busy', doing: 'a test job', hands_off: true });
    lease.setActivity({ state: 'idle' });
    expect(record()).toMatchObject({ activity: 'idle', hands_off: true });
    expect(record()['doing']).toBeUndefined();
    stop();
    expect(record()).toMatchObject({ hands_off: false });
    await lease.release();
    expect(fs.statSync(holderPath).size).toBe(0);
    lease.setActivity({ state: 'busy', doing: 'after release' });
    expect(fs.statSync(holderPath).size).toBe(0);
    expect(lease.wanted()).toBeUndefined();
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error('timed out waiting for the condition');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
