// A gate in front of the simulator's control endpoint, for killing a gflow process at an observed
// state (issue 38): a process started with --sandbox and GFLOW_CLI_SANDBOX_SIM=<gate.url> asks the
// control endpoint for its launch arguments (GET /launch) before it does anything else with the
// catalog's queue. The gate forwards every request, except the one the test arms it to hold; the
// test sees that request arrive (`held`), finds the process by its environment and kills it there.
// No seam in the product: the process is stopped where it really waits, on a reply.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ControlGate {
  /** Give children this as GFLOW_CLI_SANDBOX_SIM (the simulator's token still applies). */
  readonly url: string;
  /** How many `/launch` requests have arrived so far (passed on or held). */
  readonly launches: number;
  /** How many requests are being held now. */
  readonly held: number;
  /** Hold the `/launch` request with this number (1 = the first to arrive through the gate). */
  holdLaunch(n: number): void;
  /** Drops the held requests (their sockets are destroyed: a killed process no longer reads them). */
  dropHeld(): void;
  close(): Promise<void>;
}

/** Starts a gate on loopback that forwards to the simulator's control endpoint at `target`. */
export async function startControlGate(target: string): Promise<ControlGate> {
  let launches = 0;
  let holdAt: number | undefined;
  const held: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if ((req.url ?? '').startsWith('/launch') && ++launches === holdAt) {
        held.push(res);
        return;
      }
      void forward(target, req, Buffer.concat(chunks), res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get launches() {
      return launches;
    },
    get held() {
      return held.length;
    },
    holdLaunch: (n) => void (holdAt = n),
    dropHeld: () => {
      for (const res of held.splice(0)) res.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held.splice(0)) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function forward(
  target: string,
  req: http.IncomingMessage,
  body: Buffer,
  res: http.ServerResponse,
): Promise<void> {
  try {
    const reply = await fetch(`${target}${req.url ?? ''}`, {
      method: req.method ?? 'GET',
      headers: {
        authorization: String(req.headers['authorization'] ?? ''),
        'content-type': String(req.headers['content-type'] ?? 'application/json'),
      },
      ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body: new Uint8Array(body) }),
    });
    res.writeHead(reply.status, { 'content-type': reply.headers.get('content-type') ?? 'application/json' });
    res.end(Buffer.from(await reply.arrayBuffer()));
  } catch {
    res.destroy();
  }
}

/** Pids of live processes whose command line has every word of `argv` and whose environment has `env` (Linux /proc). */
export function processesWith(argv: readonly string[], env: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const state = /^State:\s+(\S)/m.exec(fs.readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1];
        if (state === 'Z' || state === 'X') return false;
        const words = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
        return (
          argv.every((word) => words.includes(word)) &&
          fs.readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(env)
        );
      } catch {
        return false; // gone meanwhile, or not ours
      }
    })
    .map(Number);
}
