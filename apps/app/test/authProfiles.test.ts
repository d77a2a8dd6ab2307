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
