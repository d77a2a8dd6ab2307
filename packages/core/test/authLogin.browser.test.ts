// `auth login` on a home as the README's first command meets it, and a refused login (issue 28):
// a fresh home without profiles signs in (it used to refuse, "No gflow profile exists yet"),
// and a login refused for the wrong account leaves no half-made profile behind.
import fs from 'node:fs';
import path from 'node:path';
import { exitCodeOf } from '@gflow/errors';
import { tempDir, useStarted } from '@gflow/testkit';
import { browserSetting, startSimBrowser } from '@gflow/testkit/browser';
import { describe, expect, it } from 'vitest';
import { listProfileNames } from '../src/home/profiles.js';
import { createGflow } from '../src/runtime/createGflow.js';
import type { Gflow } from '../src/runtime/gflow.js';

const EMAIL = 'first.login@example.com';
const PASSWORD = 'first-login-password';

const kit = useStarted(
  'the simulator and its browser',
  async () => {
    const started = await startSimBrowser();
    started.sim.scenario.createAccount({ email: EMAIL, password: PASSWORD, credits: 100, uploadTermsAccepted: true });
    return started;
  },
  120_000,
);

/** A library runtime on a fresh home whose sign-in window fills the simulator's form as EMAIL. */
function freshRuntime(): { gflow: Gflow; home: string } {
  const home = tempDir('core-login');
  const gflow = createGflow({
    surface: 'library',
    env: { GFLOW_CLI_HOME: home, GFLOW_CLI_LOG_LEVEL: 'WARNING', ...browserSetting() },
    cwd: home,
    browser: { ...kit.runtimeBrowser, autofillLogin: { email: EMAIL, password: PASSWORD } },
  });
  return { gflow, home };
}

describe('authLogin', () => {
  it('signs a fresh home in without a profile name, naming the profile after the account', async () => {
    const { gflow, home } = freshRuntime();
    try {
      expect(listProfileNames(gflow.layout)).toEqual([]);
      const login = await gflow.run('authLogin', { browser: 'internal', account: EMAIL });
      expect(login).toMatchObject({ status: 'authenticated', profile: 'first.login', user_email: EMAIL });
      expect(listProfileNames(gflow.layout)).toEqual(['first.login']);
      expect(fs.existsSync(path.join(home, 'profile_first.login', '.gflow_account'))).toBe(true);
    } finally {
      await gflow.close();
    }
  }, 120_000);

  it('leaves no profile behind when the account is refused (exit 38)', async () => {
    const { gflow, home } = freshRuntime();
    try {
      let caught: unknown;
      try {
        await gflow.run('authLogin', { profile: 'half', browser: 'internal', account: 'someone.else@example.com' });
      } catch (error) {
        caught = error;
      }
      expect(exitCodeOf(caught)).toBe(38);
      expect(fs.existsSync(path.join(home, 'profile_half'))).toBe(false);
      expect(listProfileNames(gflow.layout)).toEqual([]);
      const { profiles } = (await gflow.run('listProfiles', {})) as { profiles: unknown[] };
      expect(profiles).toEqual([]);
    } finally {
      await gflow.close();
    }
  }, 120_000);
});
