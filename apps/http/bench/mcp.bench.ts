// MCP throughput and latency, and a daemon's idle memory, measured side by side
// in one run: the same read tool (gflow_list_models) through the library
// in process, through `gflow mcp run` over stdio and through `gflow serve` over
// Streamable HTTP; sequential latency (p50/p95), concurrent throughput, and the
// resident memory of an idle `gflow serve` next to a bare Node process.
//   pnpm --filter @gflow/http bench [calls]
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createGflow } from '@gflow/core';
import { serve as serveHono } from '@hono/node-server';
import { Hono } from 'hono';
import { createGflowHttpApp } from '../src/index.js';
import { cpuShares } from './cpuProfile.js';

const calls = Number(process.argv[2] ?? 300);
const bin = path.resolve(import.meta.dirname, '../../app/bin/gflow.js');
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-mcp-bench-'));
const env = {
  ...process.env,
  GFLOW_CLI_HOME: home,
  GFLOW_CLI_OUTPUT_DIR: path.join(home, 'out'),
  GFLOW_CLI_LOG_LEVEL: 'ERROR',
} as Record<string, string>;

const pct = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
};

async function timeCalls(call: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 20; i++) await call();
  const samples: number[] = [];
  for (let i = 0; i < calls; i++) {
    const start = performance.now();
    await call();
    samples.push(performance.now() - start);
  }
  return samples;
}

async function throughput(call: () => Promise<unknown>, concurrency: number): Promise<number> {
  let done = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (done < calls) {
        done += 1;
        await call();
      }
    }),
  );
  return (calls / (performance.now() - start)) * 1000;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/** CPU time (user + system) a process has used, in ms (from /proc: clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** This process's CPU time in ms. */
function selfCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function rssKiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const ok = await new Promise<boolean>((resolve) =>
      net
        .connect(port, '127.0.0.1')
        .once('connect', function (this: net.Socket) {
          this.destroy();
          resolve(true);
        })
        .once('error', () => resolve(false)),
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('gflow serve did not start');
}

/** How bin/gflow.js will run the daemon: its prebuilt bundle when fresh, else the sources through tsx. */
async function launchMode(): Promise<string> {
  const sources = 'its TypeScript sources through tsx';
  if (process.env['GFLOW_FROM_SOURCES'] === '1') return `${sources} (GFLOW_FROM_SOURCES=1)`;
  try {
    const module = (await import(pathToFileURL(path.resolve(bin, '../distState.js')).href)) as {
      distState(url: URL): { fresh: boolean; reason: string };
    };
    const state = module.distState(pathToFileURL(path.resolve(bin, '../../dist/') + '/'));
    return state.fresh ? 'the prebuilt bundle in apps/app/dist' : `${sources} (apps/app/dist: ${state.reason})`;
  } catch {
    return sources;
  }
}
const mode = await launchMode();

const library = createGflow({ surface: 'library', env, cwd: home });
const libSamples = await timeCalls(() => library.run('listModels', {}));
const libRate = await throughput(() => library.run('listModels', {}), 8);
await library.close();

const stdioClient = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'auto' } });
await stdioClient.connect(
  new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', 'run'], env, stderr: 'ignore' }),
);
const stdioCall = () => stdioClient.callTool({ name: 'gflow_list_models', arguments: {} });
const stdioSamples = await timeCalls(stdioCall);
const stdioRate = await throughput(stdioCall, 8);
await stdioClient.close();

const port = await freePort();
const serve: ChildProcess = spawn(process.execPath, [bin, 'serve', '--port', String(port)], { env, stdio: 'ignore' });
await waitForPort(port);
await new Promise((r) => setTimeout(r, 1500));
const serveIdleKiB = rssKiB(serve.pid as number);
const httpClient = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'auto' } });
await httpClient.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
const httpCall = () => httpClient.callTool({ name: 'gflow_list_models', arguments: {} });
const httpSamples = await timeCalls(httpCall);
const [serverCpu0, clientCpu0] = [cpuMs(serve.pid as number), selfCpuMs()];
const httpRate = await throughput(httpCall, 8);
// Where the CPU goes in the 8-caller run: the daemon's and this client's share per call.
const serverCpuPerCall = (cpuMs(serve.pid as number) - serverCpu0) / calls;
const clientCpuPerCall = (selfCpuMs() - clientCpu0) / calls;
await httpClient.close();

// 32 concurrent clients, each its own connection, sequential calls: the latency each one sees.
const clients = await Promise.all(
  Array.from({ length: 32 }, async () => {
    const c = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await c.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
    return c;
  }),
);
const concurrent: number[] = [];
const [serverCpu32, clientCpu32] = [cpuMs(serve.pid as number), selfCpuMs()];
await Promise.all(
  clients.map(async (c) => {
    for (let i = 0; i < Math.ceil(calls / 32) + 5; i++) {
      const start = performance.now();
      await c.callTool({ name: 'gflow_list_models', arguments: {} });
      if (i >= 5) concurrent.push(performance.now() - start);
    }
  }),
);
const calls32 = 32 * (Math.ceil(calls / 32) + 5);
const serverCpuPerCall32 = (cpuMs(serve.pid as number) - serverCpu32) / calls32;
const clientCpuPerCall32 = (selfCpuMs() - clientCpu32) / calls32;
await Promise.all(clients.map((c) => c.close()));

// The daemon driven by the same load generator as the bare Hono row below: plain fetch POSTs of
// the modern (2026-07-28) JSON-RPC request an MCP client sends, so both rows measure the server
// and neither pays for the SDK client (which costs more CPU per call than the daemon does).
const modernEnvelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
};
const rawBody = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'gflow_list_models', arguments: {}, _meta: modernEnvelope },
});
const rawHeaders = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'gflow_list_models',
};
const rawCall = async (): Promise<unknown> => {
  const res = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers: rawHeaders, body: rawBody });
  const text = await res.text();
  if (res.status !== 200 || !text.includes('structuredContent'))
    throw new Error(`raw MCP call answered ${res.status}: ${text.slice(0, 200)}`);
  return text;
};
const rawSamples = await timeCalls(rawCall);
const rawRate = await throughput(rawCall, 8);
// 32 closed-loop callers (each waits for its answer before the next call): the latency each sees,
// against the daemon and against its floor, a bare Hono endpoint in its own process serving the
// daemon's own reply (bench/bareServer.ts), in alternating rounds on the same fetch client.
const replyFile = path.join(home, 'reply.json');
fs.writeFileSync(replyFile, JSON.stringify(JSON.parse(await rawCall().then(String))));
const floorPort = await freePort();
const floor: ChildProcess = spawn(
  process.execPath,
  [...process.execArgv, path.join(import.meta.dirname, 'bareServer.ts'), String(floorPort), replyFile],
  { env, stdio: 'ignore' },
);
await waitForPort(floorPort);
const floorCall = async (): Promise<unknown> => {
  const res = await fetch(`http://127.0.0.1:${floorPort}/json`, { method: 'POST', headers: rawHeaders, body: rawBody });
  return res.text();
};
async function closedLoop(call: () => Promise<unknown>, into: number[]): Promise<void> {
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      for (let i = 0; i < Math.ceil(calls / 32) + 5; i++) {
        const start = performance.now();
        await call();
        if (i >= 5) into.push(performance.now() - start);
      }
    }),
  );
}
const concurrentRaw: number[] = [];
const concurrentFloor: number[] = [];
const cpu32 = { daemon: 0, floor: 0 };
for (let round = 0; round < 3; round++) {
  let before = cpuMs(serve.pid as number);
  await closedLoop(rawCall, concurrentRaw);
  cpu32.daemon += cpuMs(serve.pid as number) - before;
  before = cpuMs(floor.pid as number);
  await closedLoop(floorCall, concurrentFloor);
  cpu32.floor += cpuMs(floor.pid as number) - before;
}
floor.kill('SIGTERM');
const perCall32 = (ms: number, samples: number[]) => (ms / samples.length).toFixed(2);

// The same payload from a bare Hono JSON endpoint, measured the same way, for the protocol's share.
const payload = await createGflow({ surface: 'library', env, cwd: home }).run('listModels', {});
const bare = new Hono().post('/json', (c) => c.json({ jsonrpc: '2.0', id: 1, result: { structuredContent: payload } }));
const barePort = await freePort();
const bareServer = serveHono({ fetch: bare.fetch, hostname: '127.0.0.1', port: barePort });
await waitForPort(barePort);
const bareCall = async () => (await fetch(`http://127.0.0.1:${barePort}/json`, { method: 'POST', body: '{}' })).json();
const bareSamples = await timeCalls(bareCall);
const bareCpu0 = selfCpuMs();
const bareRate = await throughput(bareCall, 8);
const bareCpuPerCall = (selfCpuMs() - bareCpu0) / calls;
bareServer.close();
await new Promise((r) => setTimeout(r, 1500));
const serveAfterKiB = rssKiB(serve.pid as number);
serve.kill('SIGTERM');

const idleNode = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
await new Promise((r) => setTimeout(r, 1000));
const bareKiB = rssKiB(idleNode.pid as number);
idleNode.kill();

// Time from spawning `gflow mcp run` to the answer of the first tools/list (legacy handshake + list).
const firstList: number[] = [];
for (let i = 0; i < 5; i++) {
  const start = performance.now();
  const c = new Client({ name: 'bench', version: '1' });
  await c.connect(
    new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', 'run'], env, stderr: 'ignore' }),
  );
  await c.listTools();
  firstList.push(performance.now() - start);
  await c.close();
}

// The daemon's own share, without any client: the app's fetch in this process (sources through tsx),
// modern requests built by hand. CPU time per request (robust to a busy machine) after a warm-up.
const inProcessGflow = createGflow({ surface: 'http', env, cwd: home });
const inProcess = createGflowHttpApp(inProcessGflow, { host: '127.0.0.1', port: 8000 });
const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
};
const modernRequest = (method: string, params: Record<string, unknown>, name?: string): Request =>
  new Request('http://127.0.0.1:8000/mcp', {
    method: 'POST',
    headers: {
      host: '127.0.0.1:8000',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: envelope } }),
  });
async function serverOnlyMs(make: () => Request): Promise<number> {
  for (let i = 0; i < 200; i++) await (await inProcess.fetch(make())).text();
  const n = calls * 4;
  const start = selfCpuMs();
  for (let i = 0; i < n; i++) await (await inProcess.fetch(make())).text();
  return (selfCpuMs() - start) / n;
}
const serverOnlyCall = await serverOnlyMs(() =>
  modernRequest('tools/call', { name: 'gflow_list_models', arguments: {} }, 'gflow_list_models'),
);
const serverOnlyList = await serverOnlyMs(() => modernRequest('tools/list', {}));
const shares = await cpuShares(async () => {
  const make = () => modernRequest('tools/call', { name: 'gflow_list_models', arguments: {} }, 'gflow_list_models');
  for (let i = 0; i < calls * 4; i++) await (await inProcess.fetch(make())).text();
});
await inProcess.close();
await inProcessGflow.close();

const base = pct(libSamples, 50);
const row = (name: string, s: number[], rate: number) =>
  `| ${name} | ${pct(s, 50).toFixed(2)} ms | ${pct(s, 95).toFixed(2)} ms | ${(pct(s, 50) / base).toFixed(1)}× | ${rate.toFixed(0)} calls/s |`;
const cpus = os.cpus();
const lines = [
  '## @gflow/http: MCP latency, throughput and idle memory',
  '',
  `Date: ${new Date().toISOString()}. Machine: ${cpus[0]?.model ?? '?'} ×${cpus.length}, Node ${process.version}. Tool gflow_list_models; ${calls} sequential calls after 20 warm-up calls; throughput with 8 concurrent callers; modern protocol (2026-07-28) clients.`,
  '',
  '| path | p50 | p95 | p50 vs library | throughput |',
  '|---|---|---|---|---|',
  row('library (in process)', libSamples, libRate),
  row('MCP stdio (`gflow mcp run`)', stdioSamples, stdioRate),
  row('MCP HTTP (`gflow serve`)', httpSamples, httpRate),
  row('MCP HTTP, plain fetch POSTs of the same JSON-RPC call', rawSamples, rawRate),
  row('bare Hono JSON endpoint, same payload, same fetch client', bareSamples, bareRate),
  '',
  `With the same load generator (plain fetch, 8 callers), MCP HTTP throughput is ${((rawRate / bareRate) * 100).toFixed(0)}% of the bare Hono endpoint (target ≥ 50%); through the SDK client it is ${((httpRate / bareRate) * 100).toFixed(0)}%, where the client's own CPU dominates (below).`,
  `CPU per call in the 8-caller runs: MCP HTTP ${serverCpuPerCall.toFixed(2)} ms in \`gflow serve\` + ${clientCpuPerCall.toFixed(2)} ms in this MCP client; bare Hono ${bareCpuPerCall.toFixed(2)} ms (server and fetch client both in this process). Load average at the end: ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} CPUs.`,
  '',
  '32 closed-loop callers, plain fetch POSTs of the tools/call (3 alternating rounds each):',
  '',
  '| server (own process) | p50 | p99 | p99 vs the bare endpoint | server CPU per call |',
  '|---|---:|---:|---:|---:|',
  `| \`gflow serve\` | ${pct(concurrentRaw, 50).toFixed(1)} ms | ${pct(concurrentRaw, 99).toFixed(1)} ms | ${(pct(concurrentRaw, 99) / pct(concurrentFloor, 99)).toFixed(2)}× | ${perCall32(cpu32.daemon, concurrentRaw)} ms |`,
  `| bare Hono, the daemon's reply | ${pct(concurrentFloor, 50).toFixed(1)} ms | ${pct(concurrentFloor, 99).toFixed(1)} ms | 1.00× | ${perCall32(cpu32.floor, concurrentFloor)} ms |`,
  '',
  `Target p99 ≤ 20 ms; the bare endpoint's p99 is what this machine and client allow any server. Where the daemon's CPU goes per call (server side only, below; a CPU profile by origin): ${shares.map(([name, share]) => `${name} ${(share * 100).toFixed(0)}%`).join(', ')}.`,
  '',
  `32 concurrent MCP SDK clients (one process): p50 ${pct(concurrent, 50).toFixed(1)} ms, p99 ${pct(concurrent, 99).toFixed(1)} ms.`,
  `  CPU per call there: ${serverCpuPerCall32.toFixed(2)} ms in \`gflow serve\`, ${clientCpuPerCall32.toFixed(2)} ms in this process, whose one thread runs all 32 clients: with 32 closed-loop callers on it the mean latency is at least 32 × ${clientCpuPerCall32.toFixed(2)} ≈ ${(32 * clientCpuPerCall32).toFixed(0)} ms (Little's law), whatever the server does.`,
  `Server side only (the daemon's app in this process, no client, modern requests built by hand): tools/call gflow_list_models ${serverOnlyCall.toFixed(2)} ms, tools/list ${serverOnlyList.toFixed(2)} ms of CPU per request.`,
  `\`gflow mcp run\` spawn to first tools/list answer: median ${pct(firstList, 50).toFixed(0)} ms of 5 (target ≤ 400 ms).`,
  '',
  '| process | resident memory | vs bare Node |',
  '|---|---|---|',
  `| bare \`node\` idling | ${(bareKiB / 1024).toFixed(1)} MiB | 1.00× |`,
  `| \`gflow serve\` idle after start | ${(serveIdleKiB / 1024).toFixed(1)} MiB | ${(serveIdleKiB / bareKiB).toFixed(2)}× |`,
  `| \`gflow serve\` idle after ${calls * 2 + 20} calls | ${(serveAfterKiB / 1024).toFixed(1)} MiB | ${(serveAfterKiB / bareKiB).toFixed(2)}× |`,
  '',
  `\`gflow serve\` and \`gflow mcp run\` ran ${mode}; no browser is open while idle. Memory after calls is heap growth, not a leak: \`bench/memory.ts\` forces a GC between batches and reads heapUsed.`,
  '',
];
fs.writeFileSync(path.join(import.meta.dirname, 'RESULTS.md'), lines.join('\n'));
process.stdout.write(`${lines.join('\n')}\n`);
process.exit(0);
