import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, json, makeHome } from '@gflow/testkit/cli';

function makeProfile(home: string, name: string, options: { account?: string; cookies?: boolean } = {}): string {
  const dir = path.join(home, `profile_${name}`);
  fs.mkdirSync(path.join(dir, 'Default', 'Network'), { recursive: true });
  if (options.account) fs.writeFileSync(path.join(dir, '.gflow_account'), `${options.account}\n`);
  if (options.cookies) fs.writeFileSync(path.join(dir, 'Default', 'Network', 'Cookies'), 'sqlite');
  return dir;
}

describe('gflow auth list / use / logout', () => {
  it('auth list --json is [] without profiles, and describes each profile', async () => {
    const home = makeHome();
    const empty = await cli(['auth', 'list', '--json'], { home });
    expect(empty.exitCode).toBe(0);
    expect(json(empty)).toEqual([]);

    const aliceDir = makeProfile(home, 'alice', { account: 'alice@example.com', cookies: true });
    makeProfile(home, 'bob');
    const r = await cli(['auth', 'list', '--json'], { home });
    expect(r.exitCode).toBe(0);
    const rows = json(r) as unknown as Array<Record<string, unknown>>;
    expect(rows.map((row) => row['name'])).toEqual(['alice', 'bob']);
    expect(rows[0]).toMatchObject({
      name: 'alice',
      google_account: 'alice@example.com',
      cookies_present: true,
      is_default: false,
      profile_dir: aliceDir,
    });
    expect(rows[1]).toMatchObject({ name: 'bob', google_account: null, cookies_present: false });
    expect(rows[0]?.['last_used_at']).toEqual(expect.any(String));

    const table = await cli(['auth', 'list'], { home });
    expect(table.stdout).toMatch(/^PROFILE\s+ACCOUNT/m);
    expect(table.stdout).toContain('alice@example.com');
  });

  it('auth use NAME writes default_profile; an unknown name exits 2 and changes nothing', async () => {
    const home = makeHome();
    makeProfile(home, 'alice');
    makeProfile(home, 'bob');
    const unknown = await cli(['auth', 'use', 'carol'], { home });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('Profiles: alice, bob');
    expect(fs.existsSync(path.join(home, 'config.toml'))).toBe(false);

    const ok = await cli(['auth', 'use', 'bob', '--json'], { home });
    expect(ok.exitCode).toBe(0);
    expect(json(ok)).toMatchObject({ default_profile: 'bob' });
    expect(fs.readFileSync(path.join(home, 'config.toml'), 'utf8')).toMatch(/default_profile\s*=\s*"bob"/);
    const rows = json(await cli(['auth', 'list', '--json'], { home })) as unknown as Array<Record<string, unknown>>;
    expect(rows.find((row) => row['is_default'])?.['name']).toBe('bob');
  });

  it('auth logout refuses without -y when not on a terminal, and deletes the profile with -y', async () => {
    const home = makeHome();
    const dir = makeProfile(home, 'old', { cookies: true });
    const refused = await cli(['auth', 'logout', '--profile', 'old'], { home });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('-y');
    expect(fs.existsSync(dir)).toBe(true);

    const done = await cli(['auth', 'logout', '--profile', 'old', '-y', '--json'], { home });
    expect(done.exitCode).toBe(0);
    expect(json(done)).toMatchObject({ status: 'ok', profile: 'old' });
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('bare auth lists the profiles when there are some', async () => {
    const home = makeHome();
    makeProfile(home, 'solo', { account: 'solo@example.com' });
    const r = await cli(['auth', '--json'], { home });
    expect(r.exitCode).toBe(0);
    expect(json(r)).toEqual([expect.objectContaining({ name: 'solo', is_default: true })]);
  });
});

describe('a profile name that names no profile (exit 2) says where it came from', () => {
  const refused = async (
    home: string,
    options: { env?: Record<string, string>; cwd?: string },
  ): Promise<{ detail: string; hint: string; source: unknown }> => {
    const r = await cli(['auth', 'status', '--json'], { home, ...options });
    expect(r.exitCode, r.stdout).toBe(2);
    const error = json(r)['error'] as Record<string, unknown>;
    expect(error['type']).toContain('no-profile');
    return {
      detail: String(error['detail']),
      hint: String(error['remediation_hint']),
      source: error['profile_source'],
    };
  };

  it('GFLOW_CLI_PROFILE from the environment, the working directory .env and the home .env', async () => {
    const home = makeHome();
    makeProfile(home, 'real');
    const fromEnv = await refused(home, { env: { GFLOW_CLI_PROFILE: 'ghost' } });
    expect(fromEnv.detail).toBe('Profile "ghost" does not exist (from GFLOW_CLI_PROFILE in the environment).');
    expect(fromEnv.hint).toContain('to one of: real');

    const project = path.join(home, 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, '.env'), 'GFLOW_CLI_PROFILE=phantom\n');
    const fromCwd = await refused(home, { cwd: project });
    expect(fromCwd.detail).toBe(
      `Profile "phantom" does not exist (from GFLOW_CLI_PROFILE in the working directory's .env).`,
    );

    // Paths under HOME are shown as ~ (the run's HOME is the home).
    fs.writeFileSync(path.join(home, '.env'), 'GFLOW_CLI_PROFILE=spectre\n');
    const elsewhere = path.join(home, 'elsewhere');
    fs.mkdirSync(elsewhere);
    const fromHome = await refused(home, { cwd: elsewhere });
    expect(fromHome.detail).toBe('Profile "spectre" does not exist (from GFLOW_CLI_PROFILE in ~/.env).');
    expect(fromHome.source).toBe(`GFLOW_CLI_PROFILE in ${path.join(home, '.env')}`);
  });

  it("default_profile from config.toml, with 'gflow auth use' as the way out", async () => {
    const home = makeHome();
    makeProfile(home, 'real');
    makeProfile(home, 'other');
    fs.writeFileSync(path.join(home, 'config.toml'), 'default_profile = "gone"\n');
    const r = await refused(home, {});
    expect(r.detail).toBe('Profile "gone" does not exist (from default_profile in ~/config.toml).');
    expect(r.hint).toContain("gflow auth use <name>' with one of: other, real");
    const text = await cli(['auth', 'status'], { home });
    expect(text.stderr).toContain('(from default_profile in ~/config.toml)');
  });
});
