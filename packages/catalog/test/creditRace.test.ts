import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCatalog } from '../src/index.js';
import { tempDir } from './helpers.js';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const WORKER = path.join(PACKAGE_DIR, 'test', 'fixtures', 'reserveWorker.ts');

interface Worker {
  readonly ready: Promise<void>;
  readonly result: Promise<{ granted: number }>;
  go(): void;
}

function startWorker(dbPath: string, attempts: number, quote: number, budget: number): Worker {
  const args = [dbPath, String(attempts), String(quote), String(budget)];
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, ...args], {
    cwd: PACKAGE_DIR,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let signalReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (signalReady = resolve));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const result = new Promise<{ granted: number }>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.startsWith('ready\n')) signalReady();
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.slice('ready\n'.length)) as { granted: number })
        : reject(new Error(`worker exited ${code}: ${err}`)),
    );
  });
  return { ready, result, go: () => child.stdin.write('go\n') };
}

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

describe('the daily budget between real processes', () => {
  it('two processes reserving at the cap: together they never pass it, and each is granted some', async () => {
    const dbPath = path.join(tmp.dir, 'gflow.db');
    openCatalog({ path: dbPath }).close(); // migrated once, before the race
    const quote = 12;
    const budget = 12 * 700; // room for exactly 700 quotes of 12
    const attempts = 1000; // each alone would pass the cap
    const workers = [startWorker(dbPath, attempts, quote, budget), startWorker(dbPath, attempts, quote, budget)];
    await Promise.all(workers.map((w) => w.ready)); // both connected with their rows: start them together
    for (const w of workers) w.go();
    const [a, b] = await Promise.all(workers.map((w) => w.result));

    expect(a!.granted + b!.granted).toBe(budget / quote);
    expect(a!.granted).toBeGreaterThan(0);
    expect(b!.granted).toBeGreaterThan(0);
    const catalog = openCatalog({ path: dbPath });
    expect(catalog.credits.dayTotal('alice', '2026-03-04')).toBe(budget);
    const states = catalog.database
      .prepare('SELECT credit_state AS state, count(*) AS n FROM operations GROUP BY credit_state ORDER BY state')
      .all();
    expect(states).toEqual([
      { state: 'released', n: 2 * attempts - budget / quote },
      { state: 'reserved', n: budget / quote },
    ]);
    catalog.close();
  }, 60_000);
});
