// Start-time benchmark of the gflow binary, measured side by side in one run
// (absolute times are not comparable between runs on noisy machines):
// median wall time of `gflow --version`, `gflow models --json` and
// `gflow data list projects` against `node -e 0`, printed as ratios.
//   node --import tsx apps/app/bench/cliStart.bench.ts [runs]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const runs = Number(process.argv[2] ?? 15);
// The launcher runs the bundle only when it is up to date with the sources: build it first.
const built = spawnSync(process.execPath, [path.resolve(import.meta.dirname, '..', 'scripts', 'build.mjs')], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (built.status !== 0) throw new Error('building dist/ failed');
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

// One warm-up run each (file system caches), then interleave the cases so drift hits them all alike.
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
const targets = [
  `\`gflow --version\` is ${(median(samples.get('gflow --version') ?? []) / baseline).toFixed(2)}× \`node -e 0\` (target ≤ 1.5×);`,
  `\`gflow models --json\` is ${(median(samples.get('gflow models --json') ?? []) / baseline).toFixed(2)}× (target ≤ 2×).`,
].join(' ');
console.log(targets);
fs.writeFileSync(
  path.resolve(import.meta.dirname, 'RESULTS.md'),
  `## @gflow/app: CLI start time\n\nNode ${process.version}. The binary runs its bundle (apps/app/dist, built by scripts/build.mjs just before). Median of ${runs} interleaved runs each.\n\n${rows.join('\n')}\n\n${targets}\n`,
);
fs.rmSync(home, { recursive: true, force: true });
