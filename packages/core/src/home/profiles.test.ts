import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exitCodeOf } from '@gflow/errors';
import { beforeEach, describe, expect, it } from 'vitest';
import { writeConfigToml } from './configToml.js';
import { homeLayout } from './homeLayout.js';
import { listProfileNames, resolveProfile, validateProfileName } from './profiles.js';

let home: string;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-home-'));
});

const exitOf = (fn: () => unknown): number => {
  try {
    fn();
    return 0;
  } catch (error) {
    return exitCodeOf(error);
  }
};

describe('profile names', () => {
  it.each(['../evil', '/etc', 'a/b', 'a\\b', '..', '.', 'C:evil', 'x\0y', 'a..b'])(
    'refuses the path-like %j with exit 13',
    (name) => {
      expect(exitOf(() => validateProfileName(name))).toBe(13);
    },
  );

  it.each(['', ' spaced', 'ü', '-dash', 'x'.repeat(65)])('refuses the malformed %j with exit 2', (name) => {
    expect(exitOf(() => validateProfileName(name))).toBe(2);
  });

  it('accepts plain names', () => {
    for (const name of ['default', 'alice', 'work.2', 'bob@example.com']) expect(validateProfileName(name)).toBe(name);
  });

  it('refuses a profile directory that is a symlink out of the home', () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-outside-'));
    fs.symlinkSync(outside, path.join(home, 'profile_sneaky'));
    expect(exitOf(() => resolveProfile(homeLayout(home), { requested: 'sneaky' }))).toBe(13);
  });
});

describe('resolveProfile', () => {
  const make = (...names: string[]) => names.forEach((n) => fs.mkdirSync(path.join(home, `profile_${n}`)));

  it('follows argument > GFLOW_CLI_PROFILE > config.toml > only profile', () => {
    const layout = homeLayout(home);
    make('a', 'b', 'c');
    writeConfigToml(layout.configToml, { default_profile: 'c' });
    expect(resolveProfile(layout, { requested: 'a', settings: { profile: 'b' } })).toMatchObject({
      name: 'a',
      source: 'argument',
    });
    expect(resolveProfile(layout, { requested: 'default', settings: { profile: 'b' } })).toMatchObject({
      name: 'b',
      source: 'env',
    });
    expect(resolveProfile(layout, {})).toMatchObject({
      name: 'c',
      source: 'config',
      dir: path.join(home, 'profile_c'),
    });
  });

  it('takes the only profile, and lists the choices when there are several', () => {
    const layout = homeLayout(home);
    make('solo');
    expect(resolveProfile(layout)).toMatchObject({ name: 'solo', source: 'only-profile' });
    make('other');
    let caught: unknown;
    try {
      resolveProfile(layout);
    } catch (error) {
      caught = error;
    }
    expect(exitCodeOf(caught)).toBe(2);
    expect((caught as { extensions: Record<string, unknown> }).extensions['available_profiles']).toEqual([
      'other',
      'solo',
    ]);
    expect(listProfileNames(layout)).toEqual(['other', 'solo']);
  });

  it('says no-profile (exit 2) when none exists or the named one is missing', () => {
    const layout = homeLayout(home);
    expect(exitOf(() => resolveProfile(layout))).toBe(2);
    expect(exitOf(() => resolveProfile(layout, { requested: 'ghost' }))).toBe(2);
    expect(resolveProfile(layout, { requested: 'ghost', mustExist: false }).dir).toBe(path.join(home, 'profile_ghost'));
  });
});

describe('a profile name that names no profile says where it came from', () => {
  const refusal = (fn: () => unknown): { detail: string; hint: string; extensions: Record<string, unknown> } => {
    try {
      fn();
    } catch (error) {
      const e = error as { message: string; remediationHint: string; extensions: Record<string, unknown> };
      expect(exitCodeOf(error)).toBe(2);
      return { detail: e.message, hint: e.remediationHint, extensions: e.extensions };
    }
    throw new Error('resolveProfile did not refuse');
  };

  it('names GFLOW_CLI_PROFILE and the place it was set (environment, a .env, the home .env, --profile)', () => {
    const layout = homeLayout(home);
    fs.mkdirSync(path.join(home, 'profile_real'));
    const cases = [
      ['env', 'GFLOW_CLI_PROFILE in the environment'],
      ['cwd-dotenv', "GFLOW_CLI_PROFILE in the working directory's .env"],
      ['home-dotenv', `GFLOW_CLI_PROFILE in ${path.join(home, '.env')}`],
      ['flag', '--profile'],
    ] as const;
    for (const [settingSource, origin] of cases) {
      const r = refusal(() =>
        resolveProfile(layout, { settings: { profile: 'ghost', sources: { profile: settingSource } } }),
      );
      expect(r.detail).toBe(`Profile "ghost" does not exist (from ${origin}).`);
      expect(r.extensions).toMatchObject({ profile_source: origin, available_profiles: ['real'] });
      expect(r.hint).toContain(`Change ${origin} to one of: real`);
    }
  });

  it("names config.toml's default_profile, with auth use as the way out", () => {
    const layout = homeLayout(home);
    fs.mkdirSync(path.join(home, 'profile_real'));
    writeConfigToml(layout.configToml, { default_profile: 'gone' });
    const r = refusal(() => resolveProfile(layout));
    expect(r.detail).toBe(`Profile "gone" does not exist (from default_profile in ${layout.configToml}).`);
    expect(r.hint).toContain("gflow auth use <name>' with one of: real");
  });

  it('adds nothing for a name given as the argument', () => {
    const r = refusal(() => resolveProfile(homeLayout(home), { requested: 'ghost', settings: { profile: 'x' } }));
    expect(r.detail).toBe('Profile "ghost" does not exist.');
    expect(r.extensions['profile_source']).toBeUndefined();
  });
});
