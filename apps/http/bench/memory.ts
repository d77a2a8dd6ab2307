// Does `gflow serve` leak, or does its heap just grow to a plateau? Runs the
// daemon in this process (so it can force a GC), drives modern MCP HTTP calls
// from a separate client process (bench/load.ts, 8 concurrent callers), and
// after each batch collects garbage and reads the process's memory.
//   node --expose-gc --import tsx bench/memory.ts [batches=600,2400,3000]
// What it showed (2026-11-30, 2-core VM, sources through tsx): heapUsed after a forced GC is
// 28.3 → 29.5 → 29.7 → 29.8 MiB at 600, 3000, 6000, 12000 calls (the per-request-instance code
// before the pool: 28.5 → 29.8 → 29.8 → 29.4), external and arrayBuffers flat, while RSS wanders
// 155–220 MiB up and down. The difference is V8's young generation grown under request load:
// with --max-semi-space-size=1 RSS stays at 114–125 MiB over 600–6000 calls (in a separate run a
// 2 MiB semi-space cost 7–14% more server CPU per call), so the growth is heap sizing, not a leak.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createGflow } from '@gflow/core';
import { startGflowHttpServer } from '../src/index.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const batches = (process.argv[2] ?? '600,2400,3000').split(',').map(Number);
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-mcp-memory-'));
const env = { GFLOW_CLI_HOME: home, GFLOW_CLI_OUTPUT_DIR: path.join(home, 'out'), GFLOW_CLI_LOG_LEVEL: 'ERROR' };
const gflow = createGflow({ surface: 'http', env, cwd: home });
const server = await startGflowHttpServer(gflow, { host: '127.0.0.1', port: 0 });
const url = `${server.url}${server.path}`;

const mib = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
async function sample(calls: number): Promise<string> {
  // Twice, with a turn of the event loop between, so finalizers and weak references settle.
  gc!();
  await new Promise((resolve) => setTimeout(resolve, 200));
  gc!();
  const m = process.memoryUsage();
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  const kib = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
  return `| ${calls} | ${mib(m.rss)} MiB | ${mib(m.heapUsed)} MiB | ${mib(m.heapTotal)} MiB | ${mib(m.external)} MiB | ${mib(m.arrayBuffers)} MiB | ${mib(kib('RssAnon'))} MiB | ${mib(kib('RssFile'))} MiB |`;
}

const rows = [
  `Node ${process.version} ${process.execArgv.join(' ')}`,
  '',
  '| calls | RSS | heapUsed | heapTotal | external | arrayBuffers | RssAnon | RssFile |',
  '|---|---|---|---|---|---|---|---|',
  await sample(0),
];
let total = 0;
for (const batch of batches) {
  // The client runs in its own process (as in the real daemon's life), so this process holds only the server.
  const loader = await new Promise<number | null>((resolve) => {
    spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'load.ts'), url, String(batch), '8'], {
      stdio: 'inherit',
    }).once('exit', resolve);
  });
  if (loader !== 0) throw new Error('the load client failed');
  total += batch;
  rows.push(await sample(total));
}
process.stdout.write(`${rows.join('\n')}\n`);
await server.close();
process.exit(0);
