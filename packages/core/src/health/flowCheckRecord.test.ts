import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { homeLayout } from '../home/homeLayout.js';
import { loadSettings } from '../settings/loadSettings.js';
import { checkFlowRecords } from './doctorChecks.js';
import {
  FLOW_CHECK_FILE,
  type LastFlowCheck,
  describeLastCheck,
  flowCheckIsStale,
  readFlowCheckRecord,
  writeFlowCheckRecord,
} from './flowCheckRecord.js';
import { flowCheckReminder } from './flowCheckReminder.js';

const NOW = Date.parse('2026-11-02T12:00:00Z');
const hoursAgo = (h: number): string => new Date(NOW - h * 3_600_000).toISOString();
const ok = (at: string): LastFlowCheck => ({ at, status: 'ok', ok: 20, drifted: 0, not_offered: 3, drifted_ids: [] });
const drifted = (at: string): LastFlowCheck => ({
  at,
  status: 'drifted',
  ok: 18,
  drifted: 2,
  not_offered: 3,
  drifted_ids: ['submit.button', 'reply.search'],
});

let home: string;
let dir: string;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-flowcheck-'));
  dir = homeLayout(home).profileDir('ana');
  fs.mkdirSync(dir, { recursive: true });
});

describe('the flow check record', () => {
  it('is empty until written, then holds the scratch project and the last check (0600)', () => {
    expect(readFlowCheckRecord(dir)).toEqual({ version: 1, scratch_project_id: null, last_check: null });
    const value = {
      version: 1 as const,
      scratch_project_id: '1b4e28ba-2fa1-11d2-883f-0016d3cca427',
      last_check: ok(hoursAgo(2)),
    };
    writeFlowCheckRecord(dir, value);
    expect(readFlowCheckRecord(dir)).toEqual(value);
    expect(fs.statSync(path.join(dir, FLOW_CHECK_FILE)).mode & 0o777).toBe(0o600);
  });

  it('reads a damaged, foreign or oversized file as empty', () => {
    for (const text of [
      'not json',
      '{"version":2}',
      JSON.stringify({ version: 1, scratch_project_id: '../x', last_check: null }),
      `"${'x'.repeat(20_000)}"`,
    ]) {
      fs.writeFileSync(path.join(dir, FLOW_CHECK_FILE), text);
      expect(readFlowCheckRecord(dir).scratch_project_id).toBeNull();
    }
  });

  it('is stale when missing or older than a day, and says so in one line', () => {
    expect(flowCheckIsStale(null, NOW)).toBe(true);
    expect(flowCheckIsStale(ok(hoursAgo(23)), NOW)).toBe(false);
    expect(flowCheckIsStale(ok(hoursAgo(25)), NOW)).toBe(true);
    expect(describeLastCheck('ana', null, NOW)).toMatch(/never been checked on profile ana.*gflow doctor --live/);
    expect(describeLastCheck('ana', ok(hoursAgo(30)), NOW)).toMatch(/30 h ago: all ok/);
    expect(describeLastCheck('ana', drifted(hoursAgo(72)), NOW)).toMatch(
      /3 days ago: 2 drifted \(submit\.button, reply\.search\)/,
    );
  });
});

describe('the reminder before a paid run', () => {
  const settings = (env: Record<string, string> = {}) =>
    loadSettings({ env: { GFLOW_CLI_HOME: home, ...env }, cwd: home });
  const remind = (input: Record<string, unknown>, env?: Record<string, string>) =>
    flowCheckReminder(homeLayout(home), settings(env), input, NOW)?.line ?? null;

  it('speaks when the last check is missing or stale, not when it is recent', () => {
    expect(remind({ profile: 'ana' })).toMatch(/never been checked on profile ana/);
    writeFlowCheckRecord(dir, { version: 1, scratch_project_id: null, last_check: ok(hoursAgo(2)) });
    expect(remind({ profile: 'ana' })).toBeNull();
    writeFlowCheckRecord(dir, { version: 1, scratch_project_id: null, last_check: drifted(hoursAgo(40)) });
    expect(remind({ profile: 'ana' })).toMatch(/40 h ago: 2 drifted/);
  });

  it('is quiet for a dry run, when turned off, and for a profile that does not resolve', () => {
    expect(remind({ profile: 'ana', dry_run: true })).toBeNull();
    expect(remind({ profile: 'ana' }, { GFLOW_CLI_FLOW_CHECK_REMINDER: 'false' })).toBeNull();
    expect(remind({ profile: 'nobody' })).toBeNull();
    expect(remind({ profile: '../x' })).toBeNull();
  });
});

describe('doctor: the last live check per profile', () => {
  it('is ok when recent, info when stale or never, a warning naming the fix when it drifted', () => {
    const check = () => checkFlowRecords(homeLayout(home), NOW)[0];
    expect(check()).toMatchObject({ check: 'flow.live', severity: 'info', ids: ['ana'] });
    writeFlowCheckRecord(dir, { version: 1, scratch_project_id: null, last_check: ok(hoursAgo(1)) });
    expect(check()?.severity).toBe('ok');
    writeFlowCheckRecord(dir, { version: 1, scratch_project_id: null, last_check: drifted(hoursAgo(1)) });
    expect(check()).toMatchObject({
      severity: 'warn',
      remediation: expect.stringContaining('gflow doctor --live --profile ana'),
    });
  });
});
