import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCatalog } from '../src/index.js';
import { tempDir } from './helpers.js';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const WORKER = path.join(PACKAGE_DIR, 'test', 'fixtures', 'claimWorker.ts');

interface Worker {
  readonly ready: Promise<void>;
  /** Its first claim is made (it holds the task it starts from): the racers both run. */
  readonly first: Promise<void>;
  readonly result: Promise<string[]>;
  go(): void;
}

function startWorker(dbPath: string, claimant: string, count: number, order: 'up' | 'down' | 'next'): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, dbPath, claimant, String(count), order], {
    cwd: PACKAGE_DIR,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let signalReady: () => void = () => undefined;
  let signalFirst: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (signalReady = resolve));
  const first = new Promise<void>((resolve) => (signalFirst = resolve));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const result = new Promise<string[]>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.startsWith('ready\n')) signalReady();
      if (out.startsWith('ready\nfirst\n')) signalFirst();
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.slice('ready\nfirst\n'.length)) as string[])
        : reject(new Error(`worker exited ${code}: ${err}`)),
    );
  });
  return { ready, first, result, go: () => child.stdin.write('go\n') };
}

/**
 * Lets both racers make their first claim, then both go on: neither can finish the queue before
 * the other runs, however the machine schedules them (the test counts winners, not time).
 */
async function startTogether(workers: readonly Worker[]): Promise<void> {
  for (const w of workers) w.go();
  await Promise.all(workers.map((w) => w.first));
  for (const w of workers) w.go();
}

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

describe('claim race between real processes', () => {
  it('two processes claiming the same tasks: each task has exactly one winner', async () => {
    const dbPath = path.join(tmp.dir, 'gflow.db');
    const count = 2000;
    const catalog = openCatalog({ path: dbPath });
    for (let i = 0; i < count; i++)
      catalog.tasks.create({ taskId: `race-${i}`, profile: 'alice', taskType: 't2i', payload: {} });

    // Opposite orders: the two meet somewhere in the middle, so each wins some tasks and both
    // contend for the ones around the meeting point, whichever starts first.
    const workers = [
      startWorker(dbPath, 'mcp:alice:1:a', count, 'up'),
      startWorker(dbPath, 'mcp:alice:2:b', count, 'down'),
    ];
    await Promise.all(workers.map((w) => w.ready)); // both loaded and connected
    await startTogether(workers);
    const [a = [], b = []] = await Promise.all(workers.map((w) => w.result));

    expect(a.length + b.length).toBe(count);
    expect(new Set([...a, ...b]).size).toBe(count);
    expect(a.filter((id) => b.includes(id))).toEqual([]);
    // Both raced: each made its first claim before either went on (startTogether), whatever the speed.
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);

    const rows = catalog.tasks
      .list({ status: 'working', limit: 1000, offset: 0 })
      .items.concat(catalog.tasks.list({ status: 'working', limit: 1000, offset: 1000 }).items);
    expect(rows).toHaveLength(count);
    const winners = new Map(rows.map((t) => [t.taskId, t.claimant]));
    for (const id of a) expect(winners.get(id)).toBe('mcp:alice:1:a');
    for (const id of b) expect(winners.get(id)).toBe('mcp:alice:2:b');
    catalog.close();
  }, 120_000);

  it('two processes draining one queue with claimNext: each task is claimed once, by one of them', async () => {
    const dbPath = path.join(tmp.dir, 'gflow.db');
    const count = 1000;
    const catalog = openCatalog({ path: dbPath });
    for (let i = 0; i < count; i++)
      catalog.tasks.create({ taskId: `race-${i}`, profile: 'alice', taskType: 't2i', payload: {} });
    catalog.tasks.create({ taskId: 'not-alice', profile: 'bob', taskType: 't2i', payload: {} });

    const workers = [
      startWorker(dbPath, 'worker:alice:1:a', count, 'next'),
      startWorker(dbPath, 'worker:alice:2:b', count, 'next'),
    ];
    await Promise.all(workers.map((w) => w.ready));
    await startTogether(workers);
    const [a = [], b = []] = await Promise.all(workers.map((w) => w.result));

    expect(a.length + b.length).toBe(count);
    expect(new Set([...a, ...b]).size).toBe(count);
    expect(a.filter((id) => b.includes(id))).toEqual([]);
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    // Each drains oldest first: its own claims are in queue order.
    const position = (id: string): number => Number(id.slice('race-'.length));
    for (const won of [a, b]) expect(won.map(position)).toEqual([...won.map(position)].sort((x, y) => x - y));
    expect(catalog.tasks.get('not-alice')?.status).toBe('pending');
    catalog.close();
  }, 120_000);
});
