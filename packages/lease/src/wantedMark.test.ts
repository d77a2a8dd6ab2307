// The wanted mark's file rules, in one process (the cross-process hand-off is test/handoff.test.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MARK_ABANDONED_MS, MARK_FRESH_MS, MARK_REFRESH_MS, liveWanters, writeWantedMark } from './wantedMark.js';

let dir: string;
let lockPath: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-mark-'));
  lockPath = path.join(dir, 'profile_work-0123456789abcdef.lock');
});

afterEach(() => {
  vi.useRealTimers();
  fs.rmSync(dir, { recursive: true, force: true });
});

const markNames = (): string[] =>
  fs.readdirSync(dir).filter((n) => n.startsWith('profile_work-0123456789abcdef.wanted-'));

/** A mark as another process (the live parent of this test process) would leave it. */
function foreignMark(suffix: string, createdAtMs: number, mtimeMs = createdAtMs): string {
  const file = path.join(dir, `profile_work-0123456789abcdef.wanted-${process.ppid}-${suffix}`);
  fs.writeFileSync(
    file,
    JSON.stringify({
      version: 1,
      pid: process.ppid,
      hostname: os.hostname(),
      created_at: new Date(createdAtMs).toISOString(),
      created_at_ms: createdAtMs,
    }),
    { mode: 0o600 },
  );
  fs.utimesSync(file, mtimeMs / 1000, mtimeMs / 1000);
  return file;
}

describe('wanted marks', () => {
  it('are created 0600 under a random name carrying the pid, and removed (once) by their waiter', () => {
    const mark = writeWantedMark(lockPath, 'mcp run');
    expect(mark).toBeDefined();
    expect(mark?.name).toMatch(new RegExp(`^profile_work-0123456789abcdef\\.wanted-${process.pid}-[0-9a-f]{12}$`));
    const file = path.join(dir, mark?.name ?? '');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({
      version: 1,
      pid: process.pid,
      hostname: os.hostname(),
      surface: 'mcp run',
    });
    // Its own mark never counts for this process (a holder never waits for itself).
    expect(liveWanters(lockPath)).toEqual([]);
    mark?.remove();
    mark?.remove();
    expect(markNames()).toEqual([]);
  });

  it('lists live foreign marks oldest first and drops those not refreshed within the freshness window', () => {
    const now = Date.now();
    foreignMark('b', now - 1_000);
    foreignMark('a', now - 2_000);
    foreignMark('stale', now - 3_000, now - MARK_FRESH_MS - 1_000);
    fs.writeFileSync(path.join(dir, `profile_work-0123456789abcdef.wanted-${process.ppid}-junk`), 'not json', {
      mode: 0o600,
    });
    fs.writeFileSync(path.join(dir, `profile_other-0123456789abcdef.wanted-${process.ppid}-x`), '{}', { mode: 0o600 });
    expect(liveWanters(lockPath).map((m) => m.name.slice(-1))).toEqual(['a', 'b']);
    expect(liveWanters(lockPath)[0]).toMatchObject({ pid: process.ppid, hostname: os.hostname() });
  });

  it('a waiter unlinks marks abandoned minutes ago, and only those', () => {
    const now = Date.now();
    const abandoned = foreignMark('old', now - MARK_ABANDONED_MS - 60_000);
    const quiet = foreignMark('quiet', now - 30_000);
    const mark = writeWantedMark(lockPath, undefined);
    expect(fs.existsSync(abandoned)).toBe(false);
    expect(fs.existsSync(quiet)).toBe(true);
    mark?.remove();
  });

  it('refreshes its mtime when due, and re-creates a mark unlinked under it with its original time', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const mark = writeWantedMark(lockPath, undefined);
    if (mark === undefined) throw new Error('no mark');
    const createdAt = mark.createdAtMs;
    const first = mark.name;
    vi.setSystemTime(Date.now() + MARK_REFRESH_MS + 500);
    mark.refresh();
    expect(Math.abs(fs.statSync(path.join(dir, first)).mtimeMs - Date.now())).toBeLessThan(1_000);

    fs.unlinkSync(path.join(dir, first));
    vi.setSystemTime(Date.now() + MARK_REFRESH_MS + 500);
    mark.refresh();
    expect(markNames()).toHaveLength(1);
    expect(mark.name).not.toBe(first);
    expect(JSON.parse(fs.readFileSync(path.join(dir, mark.name), 'utf8'))).toMatchObject({ created_at_ms: createdAt });
    mark.remove();
    expect(markNames()).toEqual([]);
  });

  it('is best effort: an unwritable locks dir means no mark, not an error', () => {
    expect(writeWantedMark(path.join(dir, 'missing', 'x.lock'), undefined)).toBeUndefined();
  });
});
