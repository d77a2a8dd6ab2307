import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkHome } from './doctorChecks.js';
import { checkConfigToml, checkDeprecatedSettings, walState } from './homeChecks.js';

describe('doctor: settings under retired names', () => {
  it('flags the legacy FLOW_CLI_* spelling (also in a .env) and not a current alias', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-deprecated-'));
    const dotenv = path.join(dir, '.env');
    fs.writeFileSync(dotenv, 'FLOW_CLI_HEADLESS=true\n');
    const check = checkDeprecatedSettings({ FLOW_CLI_TIMEOUT_SECONDS: '900', GFLOW_DAEMON_TOKEN: 'x'.repeat(20) }, [
      { where: 'home .env', file: dotenv },
    ]);
    expect(check).toMatchObject({ severity: 'warn', count: 2 });
    expect(check.ids?.sort()).toEqual(['FLOW_CLI_HEADLESS', 'FLOW_CLI_TIMEOUT_SECONDS']);
    expect(check.remediation).toContain('FLOW_CLI_HEADLESS → GFLOW_CLI_HEADLESS (home .env)');
    expect(checkDeprecatedSettings({ GFLOW_DAEMON_TOKEN: 'x'.repeat(20) }, []).severity).toBe('ok');
  });
});

describe('doctor: the write-ahead log', () => {
  it('is ok when small, a warning when large, info for a -shm without its -wal', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-wal-'));
    const db = path.join(dir, 'gflow.db');
    expect(walState(db).severity).toBe('ok');
    fs.writeFileSync(`${db}-shm`, '');
    expect(walState(db).severity).toBe('info');
    fs.writeFileSync(`${db}-wal`, 'x');
    expect(walState(db).severity).toBe('ok');
    fs.truncateSync(`${db}-wal`, 65 * 1024 * 1024);
    expect(walState(db)).toMatchObject({ severity: 'warn', remediation: expect.stringContaining('gflow serve') });
  });
});

describe('doctor: the home and its config.toml', () => {
  it('a home not there yet is fine only when it can be created', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-home-'));
    expect(checkHome(path.join(dir, 'a', 'b'))).toMatchObject({ severity: 'info' });
    const file = path.join(dir, 'file');
    fs.writeFileSync(file, 'x');
    expect(checkHome(file)).toEqual({ check: 'home', severity: 'fail', detail: `${file} is not a directory.` });
    expect(checkHome(path.join(file, 'a', 'b'))).toEqual({
      check: 'home',
      severity: 'fail',
      detail: `${path.join(file, 'a', 'b')} cannot be created: ${file} is not a directory.`,
    });
  });

  it('config.toml: absent or parsing is ok; one that does not parse fails, naming the file to fix', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-config-'));
    const file = path.join(dir, 'config.toml');
    expect(checkConfigToml(file)).toMatchObject({ check: 'settings.config', severity: 'ok' });
    fs.writeFileSync(file, '[telemetry]\nenabled = false\n');
    expect(checkConfigToml(file)).toMatchObject({ severity: 'ok', detail: `${file} parses` });
    fs.writeFileSync(file, 'default_profile = \n');
    expect(checkConfigToml(file)).toMatchObject({
      severity: 'fail',
      detail: expect.stringMatching(/^config\.toml is not valid TOML/),
      remediation: expect.stringContaining(file),
    });
  });
});
