// Start-time benchmark of the gflow binary, measured side by side in one run
// (absolute times are not comparable between runs on noisy machines):
// median wall time of `gflow --version`, `gflow models --json` and
// `gflow data list projects` against `node -e 0`, printed as ratios.
//   node --import tsx apps/gflow/bench/cliStart.bench.ts [runs]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const runs = Number(process.argv[2] ?? 15);
const bin = path.resolve(import.meta.dirname, '..', 'bin', 'gflow.js');
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-bench-'));
const env = { ...process.env, GFLOW_CLI_HOME: home, GFLOW_CLI_OUTPUT_DIR: path.join(home, 'out') };

const cases: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['node -e 0', ['-e', '0']],
  ['gflow --version', [bin, '--version']],
  ['gflow --help', [bin, '--help']],
  ['gflow models --json', [bin, 'models', '--json']],
  ['gflow data list projects', [bin, 'data', 'list', 'projects']],
];

function once(args: readonly string[]): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

// Warm tsx's transform cache first, then interleave the cases so drift hits them all alike.
for (const [, args] of cases) once(args);
const samples = new Map<string, number[]>(cases.map(([name]) => [name, []]));
for (let i = 0; i < runs; i++) for (const [name, args] of cases) samples.get(name)?.push(once(args));

const baseline = median(samples.get('node -e 0') ?? []);
const lines = [`gflow start time: median of ${runs} runs each, interleaved (ratio vs node -e 0)`];
const rows = ['| command | median ms | ratio vs node -e 0 |', '|---|---:|---:|'];
for (const [name] of cases) {
  const m = median(samples.get(name) ?? []);
  lines.push(`${name.padEnd(26)} ${m.toFixed(0).padStart(6)} ms  ${(m / baseline).toFixed(1).padStart(5)}x`);
  rows.push(`| \`${name}\` | ${m.toFixed(0)} | ${(m / baseline).toFixed(1)}x |`);
}
console.log(lines.join('\n'));
fs.writeFileSync(path.resolve(import.meta.dirname, 'RESULTS.md'), `## @gflow/app: CLI start time\n\nMedian of ${runs} interleaved runs each.\n\n${rows.join('\n')}\n`);
fs.rmSync(home, { recursive: true, force: true });
