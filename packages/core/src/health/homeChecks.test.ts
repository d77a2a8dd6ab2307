import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDeprecatedSettings, walState } from './homeChecks.js';

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
