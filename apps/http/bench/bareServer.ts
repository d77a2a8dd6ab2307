// The floor for the daemon's latency rows (mcp.bench.ts): a bare Hono JSON endpoint in its own
// process, as `gflow serve` is, answering every POST with the reply the daemon gave to the same
// tools/call (read from the file named by argv[3], serialised again per request as the daemon does).
// Prints a line once it listens on the port argv[2].
import fs from 'node:fs';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const reply: unknown = JSON.parse(fs.readFileSync(process.argv[3] ?? '', 'utf8'));
const app = new Hono().post('/json', async (c) => {
  await c.req.json();
  return c.json(reply);
});
const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: Number(process.argv[2]) }, () =>
  process.stdout.write('listening\n'),
);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
