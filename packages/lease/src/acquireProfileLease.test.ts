// In-process behaviour of acquireProfileLease: files, modes, symlinks, same-process refusal.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CancelledError, ConfigurationError, ProfileLockedError, SecurityError } from '@gflow/errors';
import { type AcquireProfileLeaseOptions, acquireProfileLease } from './acquireProfileLease.js';
import { canonicalProfileDir, lockFileName } from './lockPath.js';
import type { ProfileLease } from './profileLease.js';
import { withProfileLease } from './withProfileLease.js';

let home: string;
let locksDir: string;
let profileDir: string;
const leases: ProfileLease[] = [];

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-lease-unit-'));
  locksDir = path.join(home, 'state', 'locks');
  profileDir = path.join(home, 'profile_work');
  fs.mkdirSync(profileDir);
});

afterEach(async () => {
  for (const lease of leases.splice(0)) await lease.release();
  fs.rmSync(home, { recursive: true, force: true });
});

async function acquire(overrides: Partial<AcquireProfileLeaseOptions> = {}): Promise<ProfileLease> {
  const lease = await acquireProfileLease({ locksDir, profileDir, profileName: 'work', waitSeconds: 0, ...overrides });
  leases.push(lease);
  return lease;
}

const lockPathOf = (dir: string): string => path.join(locksDir, lockFileName(canonicalProfileDir(dir)));
const mode = (file: string): number => fs.statSync(file).mode & 0o777;

describe('acquireProfileLease in one process', () => {
  it('creates the locks dir 0700 and an empty lock file 0600 named after the canonical profile dir', async () => {
    const lease = await acquire();
    expect(lease.lockPath).toBe(lockPathOf(profileDir));
    expect(path.basename(lease.lockPath)).toMatch(/^profile_work-[0-9a-f]{16}\.lock$/);
    expect(lease.profileDir).toBe(fs.realpathSync(profileDir));
    expect(mode(locksDir)).toBe(0o700);
    expect(mode(lease.lockPath)).toBe(0o600);
    expect(fs.statSync(lease.lockPath).size).toBe(0);
    const holderPath = lease.lockPath.replace(/\.lock$/, '.holder.json');
    expect(mode(holderPath)).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(holderPath, 'utf8'))).toMatchObject({
      version: 1,
      pid: process.pid,
      profile_name: 'work',
    });
    // SQLite left no journal or other file beside the lock.
    expect(fs.readdirSync(locksDir).sort()).toEqual([path.basename(holderPath), path.basename(lease.lockPath)].sort());

    await lease.release();
    expect(fs.existsSync(lease.lockPath)).toBe(true);
    expect(fs.statSync(holderPath).size).toBe(0);
  });

  it('refuses a second acquire of a held profile at once, even with a long wait', async () => {
    await acquire();
    const error = await acquire({ waitSeconds: 3600 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProfileLockedError);
    expect((error as ProfileLockedError).exitCode).toBe(11);
    expect((error as ProfileLockedError).detail).toContain('by this process');
  });

  it('refuses a concurrent second acquire that starts before the first resolves', async () => {
    const first = acquire();
    const second = acquire({ waitSeconds: 3600 });
    await expect(second).rejects.toBeInstanceOf(ProfileLockedError);
    await expect(first).resolves.toMatchObject({ profileName: 'work' });
  });

  it('keys the lease on the canonical dir: a symlinked or un-normalised path is the same profile', async () => {
    const link = path.join(home, 'link_to_work');
    fs.symlinkSync(profileDir, link);
    const lease = await acquire();
    await expect(acquire({ profileDir: link })).rejects.toBeInstanceOf(ProfileLockedError);
    await expect(acquire({ profileDir: path.join(home, 'x', '..', 'profile_work') + path.sep })).rejects.toBeInstanceOf(
      ProfileLockedError,
    );
    expect(lockPathOf(link)).toBe(lease.lockPath);
  });

  it('can lease a profile dir that does not exist yet, keyed as it will be once created', async () => {
    const fresh = path.join(home, 'not', 'yet', 'profile_new');
    const lease = await acquire({ profileDir: fresh, profileName: 'new' });
    expect(lease.profileDir).toBe(path.join(fs.realpathSync(home), 'not', 'yet', 'profile_new'));
  });

  it('refuses a symlinked lock path with SecurityError (exit 13) and never touches the target', async () => {
    fs.mkdirSync(locksDir, { recursive: true, mode: 0o700 });
    const target = path.join(home, 'target.txt');
    fs.symlinkSync(target, lockPathOf(profileDir));
    const dangling = await acquire().catch((e: unknown) => e);
    expect(dangling).toBeInstanceOf(SecurityError);
    expect((dangling as SecurityError).exitCode).toBe(13);
    expect(fs.existsSync(target)).toBe(false);

    fs.writeFileSync(target, 'precious', { mode: 0o600 });
    await expect(acquire()).rejects.toBeInstanceOf(SecurityError);
    expect(fs.readFileSync(target, 'utf8')).toBe('precious');

    // The refusal left no reservation: once the link is gone the profile can be leased.
    fs.unlinkSync(lockPathOf(profileDir));
    await expect(acquire()).resolves.toMatchObject({ profileName: 'work' });
  });

  it('refuses a symlinked holder record and releases the lock it had taken', async () => {
    fs.mkdirSync(locksDir, { recursive: true, mode: 0o700 });
    const holderPath = lockPathOf(profileDir).replace(/\.lock$/, '.holder.json');
    const target = path.join(home, 'elsewhere.json');
    fs.symlinkSync(target, holderPath);
    await expect(acquire()).rejects.toBeInstanceOf(SecurityError);
    expect(fs.existsSync(target)).toBe(false);
    fs.unlinkSync(holderPath);
    await expect(acquire()).resolves.toMatchObject({ profileName: 'work' });
  });

  it('still leases when the diagnostic record cannot be written (diagnostics are best effort)', async () => {
    fs.mkdirSync(locksDir, { recursive: true, mode: 0o700 });
    const holderPath = lockPathOf(profileDir).replace(/\.lock$/, '.holder.json');
    fs.mkdirSync(holderPath);
    const lease = await acquire();
    expect(lease.released).toBe(false);
    await lease.release();
    expect(fs.statSync(holderPath).isDirectory()).toBe(true);
  });

  it('refuses a hard-linked lock file, a locks dir others can write, and a lock file with foreign content', async () => {
    fs.mkdirSync(locksDir, { recursive: true, mode: 0o700 });
    const other = path.join(home, 'other.db');
    fs.writeFileSync(other, '', { mode: 0o600 });
    fs.linkSync(other, lockPathOf(profileDir));
    await expect(acquire()).rejects.toBeInstanceOf(SecurityError);
    fs.unlinkSync(lockPathOf(profileDir));

    fs.writeFileSync(lockPathOf(profileDir), 'not a database, just text that is long enough to be read', {
      mode: 0o600,
    });
    const foreign = await acquire().catch((e: unknown) => e);
    expect(foreign).toBeInstanceOf(ConfigurationError);
    expect((foreign as ConfigurationError).detail).toContain('is not a gflow lock file');
    fs.unlinkSync(lockPathOf(profileDir));

    fs.chmodSync(locksDir, 0o777);
    await expect(acquire()).rejects.toBeInstanceOf(SecurityError);
  });

  it('validates waitSeconds and pollMs as configuration (exit 11)', async () => {
    for (const waitSeconds of [-1, 3601, Number.NaN, Number.POSITIVE_INFINITY]) {
      const error = await acquire({ waitSeconds }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as ConfigurationError).exitCode).toBe(11);
    }
    await expect(acquire({ pollMs: 0 })).rejects.toBeInstanceOf(ConfigurationError);
    for (const idleHandoffSeconds of [-1, 61, Number.NaN]) {
      await expect(acquire({ idleHandoffSeconds })).rejects.toBeInstanceOf(ConfigurationError);
    }
  });

  it('records the surface and the first activity with the lease, and later activity changes', async () => {
    const lease = await acquire({
      surface: 'mcp run',
      activity: { state: 'busy', doing: 'Generate images (gflow_generate_image)' },
    });
    const holderPath = lease.lockPath.replace(/\.lock$/, '.holder.json');
    const record = (): Record<string, unknown> =>
      JSON.parse(fs.readFileSync(holderPath, 'utf8')) as Record<string, unknown>;
    expect(record()).toMatchObject({
      surface: 'mcp run',
      activity: 'busy',
      doing: 'Generate images (gflow_generate_image)',
    });
    lease.setActivity({ state: 'idle' });
    // Rewritten in place, padded rather than truncated: a reader never meets an empty record.
    expect(record()).toMatchObject({ surface: 'mcp run', activity: 'idle' });
    expect(record()['doing']).toBeUndefined();
    expect(fs.readFileSync(holderPath, 'utf8')).toMatch(/} +$/);
  });

  it('rejects at once with CancelledError when the signal is already aborted', async () => {
    await expect(acquire({ signal: AbortSignal.abort() })).rejects.toBeInstanceOf(CancelledError);
    expect(fs.existsSync(locksDir)).toBe(false);
  });

  it('releases idempotently, through await using, and through withProfileLease on throw', async () => {
    const lease = await acquire();
    await Promise.all([lease.release(), lease.release()]);
    expect(lease.released).toBe(true);

    {
      await using scoped = await acquireProfileLease({ locksDir, profileDir, profileName: 'work', waitSeconds: 0 });
      expect(scoped.released).toBe(false);
    }
    await expect(
      withProfileLease({ locksDir, profileDir, profileName: 'work', waitSeconds: 0 }, () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const again = await acquire();
    expect(again.released).toBe(false);
  });
});
