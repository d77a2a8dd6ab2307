import { type Server, type Socket, connect, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A tiny HTTP CONNECT proxy for tests: tunnels the simulated host names to the simulator's
 * loopback port and refuses every other host. The driver receives it as an ordinary `proxy`
 * launch option, so `context.request` (Node-side, which does not use Chromium's
 * --host-resolver-rules) reaches the simulator the same way the page does.
 */
export async function startConnectProxy(hosts: readonly string[], target: { host: string; port: number }): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.once('data', (head) => {
      const line = head.toString('latin1').split('\r\n')[0] ?? '';
      const m = /^CONNECT ([^:\s]+):(\d+) HTTP\/1\.[01]$/.exec(line);
      if (m === null || !hosts.includes(m[1] ?? '') || m[2] !== '443') {
        client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
        return;
      }
      const upstream = connect(target.port, target.host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.pipe(client);
        client.pipe(upstream);
      });
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
