import { type Server, type Socket, connect, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ConnectProxy {
  /** `http://127.0.0.1:<port>`, for a browser's `proxy.server` option. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * An HTTP CONNECT proxy on loopback that tunnels the simulated host names (port
 * 443) to the simulator and refuses every other host with 403. A browser given
 * it as its proxy reaches the simulator for page loads and for Node-side
 * requests alike (Playwright's `context.request` does not use Chromium's
 * --host-resolver-rules), and can reach nothing else.
 */
export async function startConnectProxy(
  hosts: readonly string[],
  target: { host: string; port: number },
  bindHost = '127.0.0.1',
): Promise<ConnectProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  const server: Server = createServer((client) => {
    track(client);
    client.on('error', () => client.destroy());
    client.once('data', (head) => {
      const line = head.toString('latin1').split('\r\n')[0] ?? '';
      const match = /^CONNECT ([^:\s]+):(\d+) HTTP\/1\.[01]$/.exec(line);
      if (match === null || !hosts.includes((match[1] ?? '').toLowerCase()) || match[2] !== '443') {
        client.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      const upstream = connect(target.port, target.host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.pipe(client);
        client.pipe(upstream);
      });
      track(upstream);
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, bindHost, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${bindHost}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
