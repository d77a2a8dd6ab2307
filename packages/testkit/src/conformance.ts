// @gflow/testkit/conformance: the official MCP conformance suite (@modelcontextprotocol/conformance)
// run against a server on loopback, one scenario per child process, and its checks read back; plus
// a loopback HTTP face for a fetch handler (an in-process MCP server the suite can reach).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { filesUnder, removeDir, tempDir } from './tempDir.js';

/** One check of a scenario, as the suite writes it to checks.json. */
export interface ConformanceCheck {
  readonly id: string;
  readonly name: string;
  readonly status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  readonly description?: string;
  readonly errorMessage?: string;
  readonly details?: unknown;
}

/** What one scenario run reported: its checks and the runner's own output (for failure messages). */
export interface ConformanceRun {
  readonly checks: readonly ConformanceCheck[];
  readonly output: string;
}

function conformanceBin(): string {
  const packageJson = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json');
  const bin = (JSON.parse(fs.readFileSync(packageJson, 'utf8')) as { bin: { conformance: string } }).bin.conformance;
  return path.join(path.dirname(packageJson), bin);
}

/** Runs one server scenario of the suite against `url` (the suite's own CLI in a child Node) and returns its checks. */
export async function runConformanceScenario(
  url: string,
  scenario: string,
  timeoutMs = 60_000,
): Promise<ConformanceRun> {
  const outputDir = tempDir('conformance');
  try {
    const child = spawn(
      process.execPath,
      [
        conformanceBin(),
        'server',
        '--url',
        url,
        '--scenario',
        scenario,
        '--output-dir',
        outputDir,
        '--timeout',
        String(timeoutMs),
      ],
      { cwd: outputDir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    await new Promise<void>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', () => resolve());
    });
    const file = filesUnder(outputDir).find((f) => path.basename(f) === 'checks.json');
    if (!file) throw new Error(`the conformance suite wrote no checks for ${scenario}:\n${output.slice(-4000)}`);
    return { checks: JSON.parse(fs.readFileSync(file, 'utf8')) as ConformanceCheck[], output };
  } finally {
    removeDir(outputDir);
  }
}

/** The checks of a run that failed, one line each (an empty list when every check passed). */
export function failedChecks(run: ConformanceRun): string[] {
  return run.checks
    .filter((c) => c.status === 'FAILURE')
    .map((c) => `${c.id}: ${c.errorMessage ?? c.description ?? ''}`);
}

/** A fetch handler (an in-process MCP server) served on 127.0.0.1 at `/mcp`, for clients that need a URL. */
export async function serveOnLoopback(
  fetch: (request: Request) => Promise<Response>,
): Promise<{ readonly url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    void answer(fetch, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function answer(
  fetch: (request: Request) => Promise<Response>,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string') headers.set(name, value);
      else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    const body = chunks.length > 0 && req.method !== 'GET' && req.method !== 'HEAD' ? Buffer.concat(chunks) : undefined;
    const response = await fetch(
      new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, {
        method: req.method ?? 'GET',
        headers,
        ...(body ? { body } : {}),
      }),
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return void res.end();
    const stream = Readable.fromWeb(response.body as NodeReadableStream);
    res.once('close', () => stream.destroy());
    stream.pipe(res);
  } catch (error) {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(String(error));
  }
}
