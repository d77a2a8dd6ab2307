// Start-time benchmark of the gflow binary, measured side by side in one run
// (absolute times are not comparable between runs on noisy machines): median wall time of
// `gflow --version`, `--help`, `models --json` and `data list projects` against `node -e 0`,
// printed as ratios, for the binary as a user installs it (bin/ + dist/ without the sources: the
// launcher runs the bundle at once) and as it runs in this repository (the launcher first checks
// that dist/ is as new as every source it was built from, one stat per source). Beside the wall
// time, the CPU time of the process's main thread (Linux: /proc/<pid>/task/<pid>/schedstat): on a
// loaded machine it moves less than the wall time, since it leaves out waiting for a core.
//   node --import tsx apps/app/bench/cliStart.bench.ts [runs]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const runs = Number(process.argv[2] ?? 21);
const appDir = path.resolve(import.meta.dirname, '..');
// The launcher runs the bundle only when it is up to date with the sources: build it first.
const built = spawnSync(process.execPath, [path.join(appDir, 'scripts', 'build.mjs')], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (built.status !== 0) throw new Error('building dist/ failed');

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-bench-'));
const env = { ...process.env, GFLOW_CLI_HOME: home, GFLOW_CLI_OUTPUT_DIR: path.join(home, 'out') };

/** The package as npm installs it: what package.json's `files` ships, with the dependencies beside it. */
function installedCopy(): string {
  const dir = path.join(home, 'installed');
  const files = (JSON.parse(fs.readFileSync(path.join(appDir, 'package.json'), 'utf8')) as { files: string[] }).files;
  for (const rel of [...files, 'package.json'])
    fs.cpSync(path.join(appDir, rel), path.join(dir, rel), { recursive: true, dereference: true });
  fs.symlinkSync(path.join(appDir, 'node_modules'), path.join(dir, 'node_modules'));
  if (fs.existsSync(path.join(dir, 'src'))) throw new Error('the installed copy must not hold the sources');
  return path.join(dir, 'bin', 'gflow.js');
}

// Prints the main thread's CPU time when the process exits (Linux; elsewhere nothing is printed).
const probe = path.join(home, 'mainThreadCpu.mjs');
fs.writeFileSync(
  probe,
  "import fs from 'node:fs';\nprocess.on('exit', () => { try { fs.writeSync(2, `\\ngflow-bench-main-cpu ${Number(fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6}\\n`); } catch {} });\n",
);

const repoBin = path.join(appDir, 'bin', 'gflow.js');
const installedBin = installedCopy();
const COMMANDS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['--version', ['--version']],
  ['--help', ['--help']],
  ['models --json', ['models', '--json']],
  ['data list projects', ['data', 'list', 'projects']],
];
const cases: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['node -e 0', ['-e', '0']],
  ...COMMANDS.map(([name, args]) => [`gflow ${name}`, [installedBin, ...args]] as const),
  ...COMMANDS.map(([name, args]) => [`gflow ${name} (repo)`, [repoBin, ...args]] as const),
];

interface Sample {
  readonly wall: number;
  readonly mainCpu: number | undefined;
}

function once(args: readonly string[]): Sample {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, ['--import', probe, ...args], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  const cpu = /gflow-bench-main-cpu ([\d.]+)/.exec(String(result.stderr))?.[1];
  return { wall, mainCpu: cpu === undefined ? undefined : Number(cpu) };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

// One warm-up run each (file system and compile caches), then interleave the cases so drift hits them all alike.
for (const [, args] of cases) once(args);
const samples = new Map<string, Sample[]>(cases.map(([name]) => [name, []]));
for (let i = 0; i < runs; i++) for (const [name, args] of cases) samples.get(name)?.push(once(args));

const wallOf = (name: string): number => median((samples.get(name) ?? []).map((s) => s.wall));
const cpuOf = (name: string): number | undefined => {
  const values = (samples.get(name) ?? []).flatMap((s) => (s.mainCpu === undefined ? [] : [s.mainCpu]));
  return values.length ? median(values) : undefined;
};
const baseWall = wallOf('node -e 0');
const baseCpu = cpuOf('node -e 0');
const ratio = (value: number | undefined, base: number | undefined): string =>
  value === undefined || base === undefined ? '–' : `${(value / base).toFixed(2)}×`;

const rows = ['| command | median ms | vs node -e 0 | main-thread CPU vs node -e 0 |', '|---|---:|---:|---:|'];
const lines = [`gflow start time: median of ${runs} interleaved runs each (ratio vs node -e 0)`];
for (const [name] of cases) {
  const wall = wallOf(name);
  rows.push(`| \`${name}\` | ${wall.toFixed(0)} | ${ratio(wall, baseWall)} | ${ratio(cpuOf(name), baseCpu)} |`);
  lines.push(
    `${name.padEnd(34)} ${wall.toFixed(0).padStart(6)} ms  ${ratio(wall, baseWall).padStart(6)}  cpu ${ratio(cpuOf(name), baseCpu).padStart(6)}`,
  );
}
const verdict = (name: string, target: number): string =>
  `\`${name}\` ${ratio(wallOf(name), baseWall)} (target ≤ ${target}×; in the repository ${ratio(wallOf(`${name} (repo)`), baseWall)})`;
const targets = [verdict('gflow --version', 1.5), verdict('gflow --help', 1.5), verdict('gflow models --json', 2)].join(
  '; ',
);
console.log(lines.join('\n'));
console.log(targets);
fs.writeFileSync(
  path.resolve(import.meta.dirname, 'RESULTS.md'),
  [
    '## @gflow/app: CLI start time',
    '',
    `Node ${process.version}. Median of ${runs} interleaved runs each. \`gflow …\` is the package as npm installs it (bin/ and dist/, no sources; the launcher runs the bundle at once); \`(repo)\` is the same bundle run in this repository, where the launcher first checks dist/ against each of the sources it was built from (one stat each). The last column is the CPU time of the process's main thread, which a loaded machine disturbs less than the wall time.`,
    '',
    ...rows,
    '',
    `${targets}.`,
    '',
  ].join('\n'),
);
fs.rmSync(home, { recursive: true, force: true });
