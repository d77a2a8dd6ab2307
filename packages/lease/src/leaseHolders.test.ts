import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readLeaseHolders } from './leaseHolders.js';
import { describeLeaseHolder } from './profileLockedError.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function record(dir: string, name: string, pid: number, extra: Record<string, unknown> = {}): void {
  const json = {
    version: 1,
    pid,
    process_start_time: '2026-12-01T10:00:00.000Z',
    profile_name: name,
    hostname: os.hostname(),
    acquired_at: '2026-12-01T10:00:01.000Z',
    owner_token: 't',
    ...extra,
  };
  fs.writeFileSync(path.join(dir, `${name}-0123456789abcdef.holder.json`), JSON.stringify(json), { mode: 0o600 });
}

describe('readLeaseHolders', () => {
  it('lists the live holders of other processes, with what they do', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-holders-'));
    dirs.push(dir);
    record(dir, 'alice', process.ppid, { surface: 'mcp run', activity: 'busy', doing: 'Generate images' });
    record(dir, 'self', process.pid);
    record(dir, 'gone', 2 ** 30);
    fs.writeFileSync(path.join(dir, 'empty-0123456789abcdef.holder.json'), '');
    const holders = readLeaseHolders(dir);
    expect(holders.map((h) => h.profileName)).toEqual(['alice']);
    expect(describeLeaseHolder(holders[0]!)).toMatch(
      new RegExp(`^gflow mcp run, pid ${process.ppid}, profile "alice", since .*, busy with Generate images`),
    );
    expect(readLeaseHolders(path.join(dir, 'missing'))).toEqual([]);
  });
});
