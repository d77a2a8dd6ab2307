// pnpm bench:catalog — seeds a large catalog and compares each repository read
// with the same SQL run as a raw better-sqlite3 prepared statement, side by side.
// BENCH_SCALE=0.1 runs a smaller catalog for a quick look.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLAIM_TASK_SQL } from '../src/tasks/tasksRepo.js';
import { MEDIA_LOOKUP_SQL } from '../src/repositories/mediaLookup.js';
import { MEDIA_PAGE_SQL } from '../src/repositories/assetListing.js';
import { PROJECT_PAGE_SQL } from '../src/repositories/projectsRepo.js';
import { openCatalog } from '../src/index.js';
import { seedCatalog } from './seedCatalog.js';

const scale = Number(process.env['BENCH_SCALE'] ?? '1');
const size = {
  projects: Math.round(10_000 * scale),
  assets: Math.round(1_000_000 * scale),
  operations: Math.round(1_000_000 * scale),
  tasks: 20_000,
};
const ROUNDS = 40;
const PER_ROUND = 50;

interface Case {
  readonly name: string;
  readonly target: number | null;
  readonly repo: (i: number) => unknown;
  readonly raw: (i: number) => unknown;
  readonly plan: string;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

function time(fn: (i: number) => unknown, i: number): number {
  const t0 = process.hrtime.bigint();
  fn(i);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'gflow-catalog-bench-'));
const dbPath = path.join(dir, 'gflow.db');
try {
  console.log(
    `seeding ${size.assets.toLocaleString()} assets, ${size.operations.toLocaleString()} operations, ${size.projects.toLocaleString()} projects …`,
  );
  const seeding = openCatalog({ path: dbPath });
  const seed = seedCatalog(seeding.database, size);
  seeding.close();
  console.log(`seeded in ${seed.seconds.toFixed(1)} s`);
  // A fresh connection, as a CLI run would open it: repository and raw statements are prepared alike.
  const catalog = openCatalog({ path: dbPath });
  const db = catalog.database;

  const raw = {
    projects: db.prepare(PROJECT_PAGE_SQL.all),
    images: db.prepare(MEDIA_PAGE_SQL.all),
    lookup: db.prepare(MEDIA_LOOKUP_SQL.all),
    prompt: db.prepare(MEDIA_LOOKUP_SQL.prompt),
    files: db.prepare(MEDIA_LOOKUP_SQL.files),
    claim: db.prepare(CLAIM_TASK_SQL),
  };
  const plan = (sql: string, ...params: unknown[]): string =>
    (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>)
      .map((r) => r.detail)
      .join('; ');
  const pick = (i: number): string => seed.mediaId((i * 104_729) % size.assets);
  const offset = (i: number): number => (i % 10) * 50;

  const cases: Case[] = [
    {
      name: 'project page (50 rows)',
      target: 5,
      repo: (i) => catalog.projects.list({ limit: 50, offset: offset(i) }),
      raw: (i) => raw.projects.all(51, offset(i)),
      plan: plan(PROJECT_PAGE_SQL.all, 51, 0),
    },
    {
      name: 'image page (50 rows)',
      target: 10,
      repo: (i) => catalog.assets.list({ kind: 'image', limit: 50, offset: offset(i) }),
      raw: (i) => raw.images.all('image', 51, offset(i)),
      plan: plan(MEDIA_PAGE_SQL.all, 'image', 51, 0),
    },
    {
      name: 'media lookup (all profiles)',
      target: 1,
      repo: (i) => catalog.media.lookup(pick(i)),
      raw: (i) => {
        const rows = raw.lookup.all(pick(i)) as Array<{ id: number }>;
        return rows.map((r) => [raw.prompt.get(r.id), raw.files.all(r.id)]);
      },
      plan: plan(MEDIA_LOOKUP_SQL.all, pick(0)),
    },
    {
      name: 'task claim',
      target: null,
      repo: (i) => catalog.tasks.claim(seed.taskId(2 * i), 'bench:profile0:1:repo'),
      raw: (i) =>
        raw.claim.get({
          taskId: seed.taskId(2 * i + 1),
          claimant: 'bench:profile0:1:raw',
          now: new Date().toISOString(),
          checkpoint: '{}',
        }),
      plan: plan(CLAIM_TASK_SQL, { taskId: 'x', claimant: 'c', now: 'n', checkpoint: '{}' }),
    },
  ];

  const results = cases.map((c) => {
    const repoTimes: number[] = [];
    const rawTimes: number[] = [];
    for (let w = 0; w < 20; w++) {
      c.repo(w);
      c.raw(w);
    }
    let i = 100;
    for (let round = 0; round < ROUNDS; round++) {
      const start = i;
      for (let k = 0; k < PER_ROUND; k++) repoTimes.push(time(c.repo, i++));
      for (let k = 0, j = start; k < PER_ROUND; k++) rawTimes.push(time(c.raw, j++));
    }
    const repo = median(repoTimes);
    const rawMedian = median(rawTimes);
    return { ...c, repoMs: repo, rawMs: rawMedian, ratio: repo / rawMedian };
  });

  const machine = `${os.cpus()[0]?.model ?? 'unknown CPU'} ×${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}`;
  const sqlite = (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  const header = [
    `Date: ${new Date().toISOString()}`,
    `Machine: ${machine}`,
    `Node ${process.version}, SQLite ${sqlite}, scale ${scale} (${size.assets.toLocaleString()} assets, ${size.operations.toLocaleString()} operations, ${size.projects.toLocaleString()} projects), seeded in ${seed.seconds.toFixed(1)} s`,
    `Medians of ${ROUNDS * PER_ROUND} calls each, repository and raw interleaved in rounds of ${PER_ROUND}.`,
  ];
  const rows = results.map((r) => {
    const verdict = (r.target === null || r.repoMs <= r.target) && r.ratio <= 1.5 ? 'ok' : 'MISS';
    return `| ${r.name} | ${r.repoMs.toFixed(3)} | ${r.rawMs.toFixed(3)} | ${r.ratio.toFixed(2)}× | ${r.target === null ? '—' : `≤ ${r.target}`} | ${verdict} |`;
  });
  const table = [
    '| query | repository median (ms) | raw statement median (ms) | ratio | target (ms) | verdict |',
    '|---|---|---|---|---|---|',
    ...rows,
  ];
  const plans = results.map((r) => `- ${r.name}: \`${r.plan}\``);
  const report = [
    '# @gflow/catalog benchmark',
    '',
    ...header.map((h) => `${h}  `),
    '',
    ...table,
    '',
    'Query plans:',
    '',
    ...plans,
    '',
  ].join('\n');
  console.log(`\n${header.join('\n')}\n\n${table.join('\n')}\n\n${plans.join('\n')}`);
  writeFileSync(fileURLToPath(new URL('./RESULTS.md', import.meta.url)), report);
  catalog.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
