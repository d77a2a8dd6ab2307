import { describe, expect, it } from 'vitest';
import { isRetryable } from '@gflow/errors';
import { sessionProbeError } from './sessionProbeError.js';
import { accountMismatch } from './verifyLogin.js';
import { chromeLoginArgs, defaultChromeExecutable } from './chromeLaunch.js';

describe('sessionProbeError', () => {
  it('maps each outcome to the seed status', () => {
    expect(sessionProbeError({ outcome: 'authenticated', email: 'a@b.co', via: 'labs_session' })).toBeNull();
    const cases = [
      ['verification_error', 503, true],
      ['profile_marker_missing', 409, false],
      ['cookie_store_unreadable', 409, false],
      ['no_session', 401, false],
      ['google_session_only', 401, false],
    ] as const;
    for (const [outcome, status, retryable] of cases) {
      const error = sessionProbeError({ outcome, detail: 'd' });
      expect(error?.status, outcome).toBe(status);
      expect(isRetryable(error), outcome).toBe(retryable);
      expect(error?.remediationHint, outcome).toBeTruthy();
      expect(error?.extensions['probe_outcome']).toBe(outcome);
    }
  });
  it('names login --browser chrome for a missing marker', () => {
    expect(sessionProbeError({ outcome: 'profile_marker_missing', detail: 'd' })?.remediationHint).toContain(
      '--browser chrome',
    );
  });
});

describe('login helpers', () => {
  it('refuses another account with 38 and accepts the same one in any case', () => {
    expect(accountMismatch('ada@example.com', undefined)).toBeNull();
    expect(accountMismatch('ada@example.com', 'ADA@example.com')).toBeNull();
    expect(accountMismatch('ada@example.com', 'bob@example.com')?.exitCode).toBe(38);
  });
  it('starts Chrome on the profile at the labs URL without a debugging port', () => {
    const args = chromeLoginArgs('/p', {
      extraArgs: ['--remote-debugging-port=9222', '--foo'],
      ignoreHTTPSErrors: true,
    });
    expect(args[0]).toBe('--user-data-dir=/p');
    expect(args).toContain('--password-store=basic');
    expect(args).toContain('--no-first-run');
    expect(args).toContain('--window-size=1920,1080');
    expect(args).toContain('--ignore-certificate-errors');
    expect(args).toContain('--foo');
    expect(args.some((a) => a.startsWith('--remote-debugging'))).toBe(false);
    expect(args.at(-1)).toBe('https://labs.google/fx/tools/flow?hl=en');
  });
  it('knows where Chrome lives', () => {
    expect(defaultChromeExecutable('darwin', {})).toContain('Google Chrome.app');
    expect(defaultChromeExecutable('win32', { PROGRAMFILES: 'D:\\PF' })).toBe(
      'D:\\PF\\Google\\Chrome\\Application\\chrome.exe',
    );
    expect(defaultChromeExecutable('linux', {})).toBe('google-chrome');
  });
});
