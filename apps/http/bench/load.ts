// A load generator for profiling `gflow serve`: N concurrent modern MCP HTTP
// clients call gflow_list_models for a number of calls, then print the RSS
// and (when the server exposes it) nothing else. Use it against a server you
// started yourself, e.g. with `node --cpu-prof`:
//   tsx bench/load.ts <url> [calls=3000] [clients=8]
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const url = new URL(process.argv[2] ?? 'http://127.0.0.1:8000/mcp');
const calls = Number(process.argv[3] ?? 3000);
const concurrency = Number(process.argv[4] ?? 8);

const clients = await Promise.all(
  Array.from({ length: concurrency }, async () => {
    const c = new Client({ name: 'load', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await c.connect(new StreamableHTTPClientTransport(url));
    return c;
  }),
);
let done = 0;
const start = performance.now();
await Promise.all(
  clients.map(async (c) => {
    while (done < calls) {
      done += 1;
      await c.callTool({ name: 'gflow_list_models', arguments: {} });
    }
  }),
);
const seconds = (performance.now() - start) / 1000;
await Promise.all(clients.map((c) => c.close()));
process.stdout.write(`${calls} calls in ${seconds.toFixed(2)} s: ${(calls / seconds).toFixed(0)} calls/s\n`);
process.exit(0);
