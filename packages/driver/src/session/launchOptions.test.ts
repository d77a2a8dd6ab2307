import { describe, expect, it } from 'vitest';
import { acceptLanguage, buildLaunchOptions } from './launchOptions.js';

describe('buildLaunchOptions', () => {
  it('adds the root-on-Linux flags and keeps --enable-automation out', () => {
    const o = buildLaunchOptions(
      { profileDir: '/p', headless: true, executablePath: '/usr/bin/chromium', extraArgs: ['--x'] },
      { platform: 'linux', uid: 0 },
    );
    expect(o.args).toEqual(
      expect.arrayContaining([
        '--no-sandbox',
        '--disable-quic',
        '--password-store=basic',
        '--disable-blink-features=AutomationControlled',
        '--x',
      ]),
    );
    expect(o.ignoreDefaultArgs).toEqual(['--enable-automation']);
    expect(o.executablePath).toBe('/usr/bin/chromium');
    expect(o.extraHTTPHeaders['Accept-Language']).toBe('en-US,en;q=0.9');
  });

  it('never adds --no-sandbox for a normal user, and prefers the chrome channel', () => {
    const o = buildLaunchOptions(
      { profileDir: '/p', headless: false, channel: 'chrome', executablePath: '/x' },
      { platform: 'linux', uid: 1000 },
    );
    expect(o.args).not.toContain('--no-sandbox');
    expect(o.ignoreDefaultArgs).toContain('--no-sandbox');
    expect(o.channel).toBe('chrome');
    expect(o.executablePath).toBeUndefined();
  });

  it('formats Accept-Language', () => {
    expect(acceptLanguage('pt-BR')).toBe('pt-BR,pt;q=0.9');
    expect(acceptLanguage('en')).toBe('en;q=1.0');
  });
});
