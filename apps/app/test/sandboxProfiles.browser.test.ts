// Profiles in the sandbox (issue 28): a switch is read without signing anything in, a refused
// login leaves nothing behind, and the sandbox home's default profile is its own — `auth use
// --sandbox` changes it, `--profile default` is it, and the user's GFLOW_CLI_PROFILE (a real
// profile) is not used there. The tests run in order on one sandbox home.
import fs from 'node:fs';
import path from 'node:path';
import { json } from '@gflow/testkit/cli';
import { SANDBOX_EMAIL, useSandbox } from '@gflow/testkit/sandbox';
import { describe, expect, it } from 'vitest';

const sandbox = useSandbox({ seed: 'sandbox-profiles' });

const names = (rows: unknown): unknown[] => (rows as Array<{ name: string }>).map((row) => row.name);

describe('gflow in the sandbox, profiles', () => {
  it('telemetry status --sandbox reads the switch without signing a profile in (no browser)', async () => {
    const status = await sandbox.cli(['telemetry', 'status', '--sandbox', '--json']);
    expect(status.exitCode, status.stderr).toBe(0);
    expect(json(status)).toMatchObject({
      recording: 'on',
      config_path: path.join(sandbox.sandboxHome, 'config.toml'),
    });
    expect(status.stderr).not.toContain('signing the sandbox profile in');
    expect(fs.existsSync(path.join(sandbox.sandboxHome, 'profile_sandbox'))).toBe(false);

    const off = await sandbox.cli(['telemetry', 'off', '--sandbox', '--json']);
    expect(json(off)).toMatchObject({ recording: 'off' });
    expect(fs.existsSync(path.join(sandbox.sandboxHome, 'profile_sandbox'))).toBe(false);
    expect(json(await sandbox.cli(['telemetry', 'status', '--json']))).toMatchObject({ recording: 'on' });
  }, 60_000);

  it('a login refused for another account (exit 38) leaves no profile behind', async () => {
    const refused = await sandbox.cli([
      'auth',
      'login',
      '--profile',
      'half',
      '--account',
      'someone.else@example.com',
      '--sandbox',
      '--json',
    ]);
    expect(refused.exitCode, `${refused.stdout}\n${refused.stderr}`).toBe(38);
    expect(fs.existsSync(path.join(sandbox.sandboxHome, 'profile_half'))).toBe(false);
    const listed = await sandbox.cli(['auth', 'list', '--sandbox', '--json']);
    expect(names(json(listed))).toEqual(['sandbox']);
  }, 120_000);

  it('auth use --sandbox makes a sandbox profile the default; --profile default is it; GFLOW_CLI_PROFILE is not used', async () => {
    const login = await sandbox.cli(['auth', 'login', '--profile', 'work', '--sandbox', '--json']);
    expect(login.exitCode, login.stderr).toBe(0);
    const status = async (args: readonly string[] = [], env: Record<string, string> = {}) => {
      const r = await sandbox.cli(['auth', 'status', ...args, '--sandbox', '--json'], { env });
      expect(r.exitCode, r.stdout).toBe(0);
      return json(r)['profile'];
    };
    // The first use made `sandbox` the sandbox home's default.
    expect(await status()).toBe('sandbox');

    const use = await sandbox.cli(['auth', 'use', 'work', '--sandbox', '--json']);
    expect(use.exitCode, use.stderr).toBe(0);
    expect(fs.readFileSync(path.join(sandbox.sandboxHome, 'config.toml'), 'utf8')).toMatch(
      /default_profile\s*=\s*"work"/,
    );
    expect(fs.existsSync(path.join(sandbox.home, 'config.toml'))).toBe(false);
    expect(await status()).toBe('work');
    expect(await status(['--profile', 'default'])).toBe('work');
    const real = await sandbox.cli(['auth', 'status', '--sandbox', '--json'], {
      env: { GFLOW_CLI_PROFILE: 'my-real-profile' },
    });
    expect(real.exitCode, real.stdout).toBe(0);
    expect(json(real)['profile']).toBe('work');
    expect(real.stderr).toContain(
      'GFLOW_CLI_PROFILE=my-real-profile (from the environment) names a real profile and is not used here',
    );
    const rows = json(await sandbox.cli(['auth', 'list', '--sandbox', '--json'])) as unknown as Array<
      Record<string, unknown>
    >;
    expect(rows.filter((row) => row['is_default']).map((row) => row['name'])).toEqual(['work']);
    expect(rows.every((row) => row['google_account'] === SANDBOX_EMAIL)).toBe(true);

    const unknown = await sandbox.cli(['auth', 'status', '--profile', 'ghost', '--sandbox', '--json']);
    expect(unknown.exitCode).toBe(2);
    expect((json(unknown)['error'] as Record<string, unknown>)['detail']).toBe('Profile "ghost" does not exist.');
  }, 180_000);
});
