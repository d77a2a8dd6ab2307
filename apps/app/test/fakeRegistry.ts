import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in npm registry on loopback that says @gflow/app's latest is `version` (null: it has no
 * such package, and answers 404 as npm's does); records what was asked.
 */
export async function startFakeRegistry(
  version: string | null = '99.1.0',
): Promise<{ url: string; asked: string[]; close(): Promise<void> }> {
  const asked: string[] = [];
  const server = http.createServer((req, res) => {
    asked.push(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    if (version === null) {
      res.statusCode = 404;
      res.end(JSON.stringify({ error: 'Not found' }));
      return;
    }
    res.end(JSON.stringify({ name: '@gflow/app', version }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
