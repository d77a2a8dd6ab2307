import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exitCodeOf, isGflowError } from '@gflow/errors';
import { beforeEach, describe, expect, it } from 'vitest';
import { leaseWaitSecondsFor, loadSettings } from './loadSettings.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-settings-'));
});

function homeWith(dotenv: string): string {
  const home = path.join(dir, 'home');
  fs.mkdirSync(home, { recursive: true });
  fs.writeFileSync(path.join(home, '.env'), dotenv);
  return home;
}

describe('loadSettings', () => {
  it('applies flag > env > cwd .env > home .env > default', () => {
    const home = homeWith(
      'GFLOW_CLI_TIMEOUT_SECONDS=11\nGFLOW_CLI_LOCALE=fr-FR\nGFLOW_CLI_UI_MODE=agentic\nGFLOW_CLI_LOG_LEVEL=debug\n',
    );
    const cwd = path.join(dir, 'cwd');
    fs.mkdirSync(cwd);
    fs.writeFileSync(
      path.join(cwd, '.env'),
      'GFLOW_CLI_TIMEOUT_SECONDS=22\nGFLOW_CLI_LOCALE="de-DE" # comment\nGFLOW_CLI_UI_MODE=classic\n',
    );
    const env = { GFLOW_CLI_HOME: home, GFLOW_CLI_TIMEOUT_SECONDS: '33', GFLOW_CLI_UI_MODE: 'AUTO' };
    const s = loadSettings({ env, cwd, flags: { timeoutSeconds: 44 } });
    expect(s.timeoutSeconds).toBe(44);
    expect(s.sources.timeoutSeconds).toBe('flag');
    expect(s.uiMode).toBe('auto');
    expect(s.sources.uiMode).toBe('env');
    expect(s.locale).toBe('de-DE');
    expect(s.sources.locale).toBe('cwd-dotenv');
    expect(s.logLevel).toBe('DEBUG');
    expect(s.sources.logLevel).toBe('home-dotenv');
    expect(s.authLoginTimeout).toBe(600);
    expect(s.dbPath).toBe(path.join(home, 'gflow.db'));
  });

  it('reads the home from the cwd .env, and treats an empty home as unset', () => {
    const cwd = path.join(dir, 'cwd');
    fs.mkdirSync(cwd);
    fs.writeFileSync(path.join(cwd, '.env'), `GFLOW_CLI_HOME=${path.join(dir, 'h2')}\n`);
    expect(loadSettings({ env: {}, cwd }).home).toBe(path.join(dir, 'h2'));
    expect(loadSettings({ env: { GFLOW_CLI_HOME: '', HOME: os.homedir() }, cwd: dir }).home).toContain('gflow-cli');
  });

  it('accepts the GFLOW_DAEMON_TOKEN alias and legacy FLOW_CLI_ variables', () => {
    const s = loadSettings({
      env: { GFLOW_CLI_HOME: dir, GFLOW_DAEMON_TOKEN: 'x'.repeat(32), FLOW_CLI_TIMEOUT_SECONDS: '9' },
      cwd: dir,
    });
    expect(s.daemonToken).toBe('x'.repeat(32));
    expect(s.timeoutSeconds).toBe(9);
  });

  it('parses no-spend as on for any value except the false words', () => {
    for (const [value, on] of [
      ['1', true],
      ['yes', true],
      ['anything', true],
      ['', false],
      ['0', false],
      ['FALSE', false],
      ['off', false],
      ['n', false],
    ] as const) {
      expect(loadSettings({ env: { GFLOW_CLI_HOME: dir, GFLOW_MCP_NO_SPEND: value }, cwd: dir }).noSpend, value).toBe(
        on,
      );
    }
  });

  it.each([
    ['GFLOW_CLI_TIMEOUT_SECONDS', 'abc', /GFLOW_CLI_TIMEOUT_SECONDS: expected seconds 1–3600, got "abc"/],
    ['GFLOW_CLI_TIMEOUT_SECONDS', '0', /1–3600/],
    ['GFLOW_CLI_LEASE_WAIT_SECONDS', '3601', /0–3600/],
    ['GFLOW_CLI_UI_MODE', 'fancy', /auto \| classic \| agentic/],
    ['GFLOW_CLI_HEADLESS', 'maybe', /true \| false/],
    ['GFLOW_CLI_HISTORY_PROMPTS', 'forget', /store \| redacted/],
  ])('refuses %s=%s with a ConfigurationError (exit 11) naming it', (name, value, message) => {
    let caught: unknown;
    try {
      loadSettings({ env: { GFLOW_CLI_HOME: dir, [name]: value }, cwd: dir });
    } catch (error) {
      caught = error;
    }
    expect(isGflowError(caught)).toBe(true);
    expect(exitCodeOf(caught)).toBe(11);
    expect((caught as Error).message).toMatch(message);
  });

  it('never echoes a secret value in its error', () => {
    expect(() =>
      loadSettings({ env: { GFLOW_CLI_HOME: dir, GFLOW_CLI_DAEMON_TOKEN: 'short-secret' }, cwd: dir }),
    ).toThrow(/<redacted>/);
    expect(() =>
      loadSettings({ env: { GFLOW_CLI_HOME: dir, GFLOW_CLI_DAEMON_TOKEN: 'short-secret' }, cwd: dir }),
    ).not.toThrow(/short-secret/);
  });

  it('defaults the lease wait to 600 s for the CLI (it waits in line) and 180 s for servers, unless set; 0 is kept', () => {
    const plain = loadSettings({ env: { GFLOW_CLI_HOME: dir }, cwd: dir });
    expect(leaseWaitSecondsFor(plain, 'cli')).toBe(600);
    expect(leaseWaitSecondsFor(plain, 'server')).toBe(180);
    const set = loadSettings({ env: { GFLOW_CLI_HOME: dir, GFLOW_CLI_LEASE_WAIT_SECONDS: '5' }, cwd: dir });
    expect(leaseWaitSecondsFor(set, 'server')).toBe(5);
    const fast = loadSettings({ env: { GFLOW_CLI_HOME: dir, GFLOW_CLI_LEASE_WAIT_SECONDS: '0' }, cwd: dir });
    expect(leaseWaitSecondsFor(fast, 'cli')).toBe(0);
  });
});
