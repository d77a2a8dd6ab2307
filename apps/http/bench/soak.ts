// Soak of `gflow serve --sandbox` on the running Node (issue 16: on Node ≥ 24.19 better-sqlite3 ≤ 12
// aborted the process when a statement was collected): N concurrent MCP clients (SDK v2, modern
// era) call read tools — one that opens the catalog (gflow_usage_stats) and one that does not
// (gflow_list_models) — for S seconds; then SIGTERM, and the daemon must exit 0 with no native
// assertion on stderr. Prints calls, errors and calls/s. Exit 1 when anything is off.
//   tsx bench/soak.ts [clients=64] [seconds=30]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const clients = Number(process.argv[2] ?? 64);
const seconds = Number(process.argv[3] ?? 30);
const bin = path.resolve(import.meta.dirname, '../../app/bin/gflow.js');
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-soak-'));
const env = { ...process.env, GFLOW_CLI_HOME: home, GFLOW_CLI_LOG_LEVEL: 'WARNING' } as Record<string, string>;

const daemon = spawn(process.execPath, [bin, 'serve', '--sandbox', '--port', '0'], {
  env,
  stdio: ['ignore', 'pipe', 'pipe'],
});
let stderr = '';
daemon.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
  daemon.on('exit', (code, signal) => resolve({ code, signal })),
);

const url = await new Promise<URL>((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`gflow serve did not listen within 60 s:\n${stderr}`)), 60_000);
  const poll = setInterval(() => {
    const m = /listening on (http:\/\/\S+?\/mcp)/.exec(stderr);
    if (m?.[1] === undefined) return;
    clearInterval(poll);
    clearTimeout(timer);
    resolve(new URL(m[1]));
  }, 50);
});

const connected = await Promise.all(
  Array.from({ length: clients }, async () => {
    const c = new Client({ name: 'soak', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await c.connect(new StreamableHTTPClientTransport(url));
    return c;
  }),
);
let calls = 0;
let errors = 0;
const until = Date.now() + seconds * 1000;
await Promise.all(
  connected.map(async (c, i) => {
    while (Date.now() < until) {
      try {
        const result = (await c.callTool({
          name: i % 2 === 0 ? 'gflow_usage_stats' : 'gflow_list_models',
          arguments: {},
        })) as { isError?: boolean };
        if (result.isError === true) errors += 1;
      } catch {
        errors += 1;
      }
      calls += 1;
    }
  }),
);
await Promise.all(connected.map((c) => c.close().catch(() => undefined)));
daemon.kill('SIGTERM');
const end = await exited;
const aborted = /Assertion failed|FATAL ERROR|Aborted|Segmentation/.test(stderr);
process.stdout.write(
  `Node ${process.versions.node}: ${clients} clients × ${seconds} s: ${calls} calls (${(calls / seconds).toFixed(0)}/s), ${errors} errors; gflow serve exit ${end.code ?? end.signal}${aborted ? ', NATIVE ABORT on stderr' : ''}\n`,
);
fs.rmSync(home, { recursive: true, force: true });
process.exit(errors === 0 && end.code === 0 && !aborted ? 0 : 1);
