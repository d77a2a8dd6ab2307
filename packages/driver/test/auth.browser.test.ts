import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exitCodeOf } from '@gflow/errors';
import { loginWithBrowser } from '../src/auth/loginWithBrowser.js';
import { readProfileMarkers } from '@gflow/flow-facts';
import { writeProfileMarkers } from '../src/auth/markers.js';
import { probeContext } from '../src/auth/probeContext.js';
import { probeSession } from '../src/auth/probeSession.js';
import { pageSnapshotOf } from '../src/session/scratchPage.js';
import { renewSession } from '../src/auth/renewSession.js';
import { useFullBrowser, useSimBrowser } from '@gflow/testkit/browser';

// The Chrome login reads the browser's pid from its profile lock, which the headless shell does
// not take: this file runs the full browser.
useFullBrowser();
const h = useSimBrowser();
let adaProfile = '';

beforeAll(() => {
  h.sim.scenario.createAccount({ email: 'ada@example.com', password: 'pw-ada', credits: 100 });
  h.sim.scenario.createAccount({ email: 'bob@example.com', password: 'pw-bob', credits: 100 });
  h.sim.scenario.createAccount({ email: 'mig@example.com', password: 'pw-mig', labsSession: false });
  h.sim.scenario.createAccount({ email: 'renew@example.com', password: 'pw-r' });
});

async function internalLogin(
  profileDir: string,
  email: string,
  password: string,
  extra: { expectedAccount?: string; timeoutMs?: number } = {},
) {
  return loginWithBrowser({
    profileDir,
    strategy: 'internal',
    // A bound for a hung sign-in, not a measure: a loaded machine took more than 30 s (the test limit is 3 min).
    timeoutMs: extra.timeoutMs ?? 120_000,
    autofill: { email, password },
    ...h.launch,
    ...(extra.expectedAccount === undefined ? {} : { expectedAccount: extra.expectedAccount }),
  });
}

describe('internal login', () => {
  it('signs in with autofill, writes both markers, and the probe agrees', async () => {
    adaProfile = h.tempPath('profile');
    const result = await internalLogin(adaProfile, 'ada@example.com', 'pw-ada', { expectedAccount: 'Ada@Example.com' });
    expect(result).toEqual({ email: 'ada@example.com', strategy: 'internal' });
    expect(await readProfileMarkers(adaProfile)).toEqual({ account: 'ada@example.com', strategy: 'internal' });
    expect(await probeSession({ profileDir: adaProfile, ...h.launch })).toEqual({
      outcome: 'authenticated',
      email: 'ada@example.com',
      via: 'labs_session',
    });
  });

  it('refuses a different signed-in account with 38 and leaves no marker', async () => {
    const dir = h.tempPath('profile');
    const error = await internalLogin(dir, 'bob@example.com', 'pw-bob', { expectedAccount: 'ada@example.com' }).catch(
      (e: unknown) => e,
    );
    expect(exitCodeOf(error)).toBe(38);
    expect(await readProfileMarkers(dir)).toEqual({ account: null, strategy: null });
  });

  it('times out with 12 when nobody signs in, leaving no marker', async () => {
    const dir = h.tempPath('profile');
    const error = await loginWithBrowser({
      profileDir: dir,
      strategy: 'internal',
      timeoutMs: 2_500,
      ...h.launch,
    }).catch((e: unknown) => e);
    expect(exitCodeOf(error)).toBe(12);
    expect(await readProfileMarkers(dir)).toEqual({ account: null, strategy: null });
  });

  it('verifies a migrated account without a labs session through myaccount', async () => {
    const dir = h.tempPath('profile');
    expect(await internalLogin(dir, 'mig@example.com', 'pw-mig')).toEqual({
      email: 'mig@example.com',
      strategy: 'internal',
    });
    expect(await probeSession({ profileDir: dir, ...h.launch })).toEqual({
      outcome: 'authenticated',
      email: 'mig@example.com',
      via: 'google_account',
    });
  });
});

describe('chrome login (plain subprocess)', () => {
  it('stops the browser and raises 12 past the timeout', async () => {
    const dir = h.tempPath('profile');
    const error = await loginWithBrowser({
      profileDir: dir,
      strategy: 'chrome',
      timeoutMs: 1_500,
      executablePath: h.launch.executablePath,
      extraArgs: [...h.launch.extraArgs, '--headless=new'],
      ignoreHTTPSErrors: true,
    }).catch((e: unknown) => e);
    expect(exitCodeOf(error)).toBe(12);
    expect(await readProfileMarkers(dir)).toEqual({ account: null, strategy: null });
  });

  it('verifies the session once the window closes and writes the chrome marker', async () => {
    expect(adaProfile).not.toBe('');
    const login = loginWithBrowser({
      profileDir: adaProfile,
      strategy: 'chrome',
      timeoutMs: 120_000,
      executablePath: h.launch.executablePath,
      extraArgs: [...h.launch.extraArgs, '--headless=new'],
      ignoreHTTPSErrors: true,
    });
    // The "human" closes the window: stop the Chromium the login started (its pid is in SingletonLock).
    let pid = 0;
    for (let i = 0; i < 100 && pid === 0; i += 1) {
      await new Promise((r) => setTimeout(r, 100));
      const { readlink } = await import('node:fs/promises');
      const target = await readlink(join(adaProfile, 'SingletonLock')).catch(() => '');
      pid = Number(/-(\d+)$/.exec(target)?.[1] ?? 0);
    }
    expect(pid).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 1_500));
    process.kill(pid, 'SIGTERM');
    expect(await login).toEqual({ email: 'ada@example.com', strategy: 'chrome' });
    expect((await readProfileMarkers(adaProfile)).strategy).toBe('chrome');
  });
});

describe('session probes', () => {
  it('says profile_marker_missing without a strategy marker', async () => {
    const dir = h.tempPath('profile');
    await mkdir(dir, { recursive: true });
    expect(await probeSession({ profileDir: dir, ...h.launch })).toMatchObject({ outcome: 'profile_marker_missing' });
  });

  it('says no_session for a marked profile that never signed in', async () => {
    const dir = h.tempPath('profile');
    await mkdir(dir, { recursive: true });
    await writeProfileMarkers(dir, 'x@example.com', 'internal');
    expect(await probeSession({ profileDir: dir, ...h.launch })).toMatchObject({ outcome: 'no_session' });
  });

  it('says cookie_store_unreadable for a corrupt cookie database', async () => {
    const dir = h.tempPath('profile');
    await mkdir(join(dir, 'Default', 'Network'), { recursive: true });
    await writeProfileMarkers(dir, 'x@example.com', 'internal');
    await writeFile(join(dir, 'Default', 'Network', 'Cookies'), 'garbage, not sqlite');
    expect(await probeSession({ profileDir: dir, ...h.launch })).toMatchObject({ outcome: 'cookie_store_unreadable' });
  });

  it('says verification_error after retrying a 503 three times', async () => {
    const context = await h.launchPersistent(h.tempPath('profile'));
    try {
      let hits = 0;
      await context.route('https://labs.google/fx/api/auth/session', async (route) => {
        hits += 1;
        await route.fulfill({ status: 503, body: 'unavailable' });
      });
      const result = await probeContext(context, { retryDelaysMs: [50, 50] });
      expect(result).toMatchObject({ outcome: 'verification_error' });
      expect(hits).toBe(3);
      // Asked to, the probe throws that outcome on its page, which is photographed for the incident bundle.
      const thrown = await probeContext(context, {
        retryDelaysMs: [50, 50],
        failAs: (r) => (r.outcome === 'verification_error' ? new Error(r.detail) : null),
      }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(thrown).toBeInstanceOf(Error);
      const snapshot = pageSnapshotOf(thrown);
      expect(snapshot).toMatchObject({
        operation: 'probing the Flow session',
        url: expect.stringContaining('labs.google'),
      });
      expect(hits).toBe(6);
    } finally {
      await context.close();
    }
  });
});

describe('renewSession', () => {
  it('renews a profile whose Flow cookies are gone, and asks for a human once Google signed it out', async () => {
    const dir = h.tempPath('profile');
    await internalLogin(dir, 'renew@example.com', 'pw-r');
    const context = await h.launchPersistent(dir);
    await context.clearCookies({ domain: 'flow.google.com' });
    await context.clearCookies({ domain: 'labs.google' });
    await context.close();
    expect(await probeSession({ profileDir: dir, ...h.launch })).toMatchObject({ outcome: 'google_session_only' });
    expect(await renewSession({ profileDir: dir, ...h.launch })).toEqual({
      outcome: 'renewed',
      email: 'renew@example.com',
    });
    h.sim.scenario.signOut('renew@example.com');
    expect(await renewSession({ profileDir: dir, ...h.launch })).toMatchObject({
      outcome: 'needs_human',
      reason: 'signed_out',
    });
    expect(await readFile(join(dir, '.gflow_account'), 'utf8')).toBe('renew@example.com\n');
  });
});
