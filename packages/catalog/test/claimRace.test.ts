import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCatalog } from '../src/index.js';
import { tempDir } from './helpers.js';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const WORKER = path.join(PACKAGE_DIR, 'test', 'fixtures', 'claimWorker.ts');

function runWorker(dbPath: string, claimant: string, count: number, startAt: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER, dbPath, claimant, String(count), String(startAt)], {
      cwd: PACKAGE_DIR,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as string[]) : reject(new Error(`worker exited ${code}: ${err}`))));
  });
}

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

describe('claim race between real processes', () => {
  it('two processes claiming the same tasks: each task has exactly one winner', async () => {
    const dbPath = path.join(tmp.dir, 'gflow.db');
    const count = 300;
    const catalog = openCatalog({ path: dbPath });
    for (let i = 0; i < count; i++) catalog.tasks.create({ taskId: `race-${i}`, profile: 'alice', taskType: 't2i', payload: {} });

    const startAt = Date.now() + 2500; // both workers load tsx first, then start together
    const [a, b] = await Promise.all([
      runWorker(dbPath, 'mcp:alice:1:a', count, startAt),
      runWorker(dbPath, 'mcp:alice:2:b', count, startAt),
    ]);

    expect(a.length + b.length).toBe(count);
    expect(new Set([...a, ...b]).size).toBe(count);
    expect(a.filter((id) => b.includes(id))).toEqual([]);
    // Both really raced (neither finished before the other started).
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);

    const rows = catalog.tasks.list({ status: 'working', limit: 1000 }).items;
    expect(rows).toHaveLength(count);
    const winners = new Map(rows.map((t) => [t.taskId, t.claimant]));
    for (const id of a) expect(winners.get(id)).toBe('mcp:alice:1:a');
    for (const id of b) expect(winners.get(id)).toBe('mcp:alice:2:b');
    catalog.close();
  }, 30_000);
});
