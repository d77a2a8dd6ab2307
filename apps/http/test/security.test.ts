import { exitCodeOf } from '@gflow/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { createGflowHttpApp, startGflowHttpServer, tokensMatch, bearerTokenOf } from '../src/index.js';
import { TOKEN, makeGflow } from './helpers.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function app(token?: string) {
  const gflow = makeGflow();
  const created = createGflowHttpApp(gflow, { host: '127.0.0.1', port: 8000, token, transport: 'sse' });
  cleanups.push(async () => {
    await created.close();
    await gflow.close();
  });
  return created;
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

function request(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Request {
  return new Request(`http://127.0.0.1:8000${path}`, {
    method: init.method ?? 'POST',
    headers: {
      host: '127.0.0.1:8000',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...init.headers,
    },
    ...(init.body !== undefined ? { body: init.body } : init.method === 'GET' ? {} : { body: initialize }),
  });
}

describe('bearer auth', () => {
  const paths: Array<[string, 'GET' | 'POST']> = [
    ['/mcp', 'POST'],
    ['/mcp', 'GET'],
    ['/sse', 'GET'],
    ['/messages/?session_id=x', 'POST'],
  ];
  const badAuth: Array<[string, Record<string, string>]> = [
    ['missing', {}],
    ['wrong token', { authorization: 'Bearer not-the-token-at-all' }],
    ['non-Bearer scheme', { authorization: `Basic ${TOKEN}` }],
    ['bare token', { authorization: TOKEN }],
  ];
  for (const [path, method] of paths) {
    for (const [label, headers] of badAuth) {
      it(`${method} ${path}: ${label} → 401 with WWW-Authenticate`, async () => {
        const response = await app(TOKEN).fetch(request(path, { method, headers }));
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toBe('Bearer realm="gflow"');
      });
    }
  }

  it('lets the right token through (scheme case-insensitive)', async () => {
    const response = await app(TOKEN).fetch(request('/mcp', { headers: { authorization: `bearer ${TOKEN}` } }));
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeTruthy();
  });

  it('answers 401 before the Host check, so the allow-list is not revealed', async () => {
    const created = app(TOKEN);
    const unauthenticated = await created.fetch(request('/mcp', { headers: { host: 'evil.example' } }));
    expect(unauthenticated.status).toBe(401);
    const authenticated = await created.fetch(
      request('/mcp', { headers: { host: 'evil.example', authorization: `Bearer ${TOKEN}` } }),
    );
    expect(authenticated.status).toBe(403);
  });

  it('compares tokens in constant time and parses the header strictly', () => {
    expect(tokensMatch(TOKEN, TOKEN)).toBe(true);
    expect(tokensMatch(`${TOKEN}x`, TOKEN)).toBe(false);
    expect(tokensMatch('', TOKEN)).toBe(false);
    expect(bearerTokenOf(`Bearer ${TOKEN}`)).toBe(TOKEN);
    expect(bearerTokenOf(`Basic ${TOKEN}`)).toBeUndefined();
    expect(bearerTokenOf('Bearer ')).toBeUndefined();
  });
});

describe('DNS-rebinding guard', () => {
  it('refuses a foreign Host', async () => {
    const response = await app().fetch(request('/mcp', { headers: { host: 'evil.example:8000' } }));
    expect(response.status).toBe(403);
  });

  it('refuses a foreign Origin and accepts a localhost one', async () => {
    const created = app();
    expect((await created.fetch(request('/mcp', { headers: { origin: 'http://evil.example' } }))).status).toBe(403);
    expect((await created.fetch(request('/mcp', { headers: { origin: 'http://localhost:5173' } }))).status).toBe(200);
  });

  it('accepts loopback Host names', async () => {
    const created = app();
    for (const host of ['127.0.0.1:8000', 'localhost:8000', '[::1]:8000']) {
      expect((await created.fetch(request('/mcp', { headers: { host } }))).status, host).toBe(200);
    }
  });
});

describe('request body parsing', () => {
  it('answers a malformed JSON body 400 and an oversized one 413, after the Host/Origin guard', async () => {
    const created = app();
    const malformed = await created.fetch(request('/mcp', { body: '{"jsonrpc":' }));
    expect([malformed.status, await malformed.json()]).toEqual([
      400,
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the message is not JSON' } },
    ]);
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
      params: { pad: 'x'.repeat(4 * 1024 * 1024) },
    });
    const tooLarge = await created.fetch(request('/mcp', { body: huge }));
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({
      error: { code: -32000, message: expect.stringContaining('Payload Too Large') },
    });
    // The guard answers first: a foreign Host never gets its body read.
    expect(
      (await created.fetch(request('/mcp', { headers: { host: 'evil.example' }, body: '{"jsonrpc":' }))).status,
    ).toBe(403);
    expect(
      (await created.fetch(request('/mcp', { headers: { origin: 'http://evil.example' }, body: huge }))).status,
    ).toBe(403);
  });

  it('bounds the body over real HTTP, with a declared length and chunked', async () => {
    const gflow = makeGflow();
    const server = await startGflowHttpServer(gflow, { host: '127.0.0.1', port: 0 });
    cleanups.push(() => server.close());
    const url = `${server.url}/mcp`;
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { pad: 'x'.repeat(4 * 1024 * 1024) },
    });
    expect((await fetch(url, { method: 'POST', headers, body: huge })).status).toBe(413);
    const chunks = [huge.slice(0, 1024 * 1024), huge.slice(1024 * 1024)];
    const chunked = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(next));
      },
    });
    const streamed = await fetch(url, { method: 'POST', headers, body: chunked, duplex: 'half' } as RequestInit);
    expect(streamed.status).toBe(413);
    // Within the limit, both ways parse.
    const small = initialize;
    expect((await fetch(url, { method: 'POST', headers, body: small })).status).toBe(200);
    const smallStream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(small));
        controller.close();
      },
    });
    expect(
      (await fetch(url, { method: 'POST', headers, body: smallStream, duplex: 'half' } as RequestInit)).status,
    ).toBe(200);
    const malformed = await fetch(url, { method: 'POST', headers, body: '{"jsonrpc":' });
    expect([malformed.status, await malformed.json()]).toEqual([
      400,
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the message is not JSON' } },
    ]);
  });

  it('guards the Host of a wildcard bind with allowedHosts, and of a named bind with its own name', async () => {
    const gflow = makeGflow();
    const wildcard = createGflowHttpApp(gflow, {
      host: '0.0.0.0',
      port: 8000,
      token: TOKEN,
      allowedHosts: ['gflow.lan'],
    });
    const named = createGflowHttpApp(gflow, { host: '192.168.1.20', port: 8000, token: TOKEN });
    cleanups.push(async () => {
      await wildcard.close();
      await named.close();
      await gflow.close();
    });
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await wildcard.fetch(request('/mcp', { headers: { ...auth, host: 'evil.example:8000' } }))).status).toBe(
      403,
    );
    expect((await wildcard.fetch(request('/mcp', { headers: { ...auth, host: 'gflow.lan:8000' } }))).status).toBe(200);
    expect((await named.fetch(request('/mcp', { headers: { ...auth, host: 'localhost:8000' } }))).status).toBe(403);
    expect((await named.fetch(request('/mcp', { headers: { ...auth, host: '192.168.1.20:8000' } }))).status).toBe(200);
  });
});

describe('prototype keys as tool arguments (issue 40)', () => {
  const modern = (id: string, args: string): Request =>
    request('/mcp', {
      headers: {
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'gflow_list_models',
      },
      // By hand: JSON.stringify of an object literal would not keep an own __proto__.
      body: `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"gflow_list_models","arguments":${args},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}}}`,
    });

  it.each(['__proto__', 'constructor', 'prototype'])(
    '%s gets the 400 bad-parameter envelope like any unknown argument',
    async (key) => {
      const created = app();
      const response = await created.fetch(modern(key, `{${JSON.stringify(key)}:{"kind":"video"}}`));
      const body = (await response.json()) as {
        result?: { isError?: boolean; structuredContent?: { error?: Record<string, unknown> } };
      };
      expect(body.result?.isError).toBe(true);
      expect(body.result?.structuredContent?.error).toMatchObject({
        status: 400,
        parameter: key,
        detail: expect.stringContaining(`Unknown parameter "${key}"`),
      });
      const plain = (await (await created.fetch(modern('ok', '{}'))).json()) as { result?: { isError?: boolean } };
      expect(plain.result?.isError).toBeUndefined();
    },
  );
});

describe('startGflowHttpServer bind policy', () => {
  it.each(['0.0.0.0', 'localhost', '192.168.1.20', '::'])('refuses %s without a token (exit 11)', async (host) => {
    const gflow = makeGflow();
    cleanups.push(() => gflow.close());
    let caught: unknown;
    try {
      await startGflowHttpServer(gflow, { host, port: 0 });
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 'configuration' });
    expect(exitCodeOf(caught)).toBe(11);
  });

  it('takes the token from GFLOW_DAEMON_TOKEN', async () => {
    const gflow = makeGflow({ GFLOW_DAEMON_TOKEN: TOKEN });
    const server = await startGflowHttpServer(gflow, { host: '127.0.0.1', port: 0 });
    cleanups.push(() => server.close());
    const response = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: initialize,
    });
    expect(response.status).toBe(401);
  });

  it('serves loopback without a token, warning about it', async () => {
    const warnings: string[] = [];
    const gflow = makeGflow({}, { debug() {}, info() {}, warn: (m: string) => void warnings.push(m), error() {} });
    const server = await startGflowHttpServer(gflow, { host: '127.0.0.1', port: 0, transport: 'sse' });
    cleanups.push(() => server.close());
    expect(server.port).toBeGreaterThan(0);
    expect(warnings).toContain('http.serve.unauthenticated');
    expect(warnings).toContain('http.serve.sse_deprecated');
  });
});

/** A browser's GET of a page: no body, no JSON content type. */
function browserGet(path: string, headers: Record<string, string> = {}): Request {
  return new Request(`http://127.0.0.1:8000${path}`, { headers: { host: '127.0.0.1:8000', ...headers } });
}

describe('the gallery beside /mcp', () => {
  it('its pages carry the CSP and security headers; MCP responses keep their own headers', async () => {
    const created = app();
    const page = await created.fetch(browserGet('/'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    const mcp = await created.fetch(request('/mcp'));
    expect(mcp.status).toBe(200);
    expect(mcp.headers.get('content-security-policy')).toBeNull();
    expect(mcp.headers.get('x-frame-options')).toBeNull();
  });

  it('with a token: a one-time login code sets a session cookie the pages accept, and /mcp does not', async () => {
    const created = app(TOKEN);
    expect((await created.fetch(browserGet('/'))).status).toBe(401);
    const loginPath = created.mintLoginPath() ?? '';
    expect(loginPath).toMatch(/^\/login\?code=[\w-]+$/);
    const login = await created.fetch(browserGet(loginPath));
    expect(login.status).toBe(303);
    const setCookie = login.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    const cookie = setCookie.split(';')[0] ?? '';
    expect((await created.fetch(browserGet('/media', { cookie }))).status).toBe(200);
    expect((await created.fetch(request('/mcp', { headers: { cookie } }))).status).toBe(401);
    expect((await created.fetch(browserGet(loginPath))).status).toBe(401);
    // A login code is minted only for the token, never for a cookie.
    expect((await created.fetch(request('/gallery/login', { headers: { cookie } }))).status).toBe(401);
    const minted = await created.fetch(request('/gallery/login', { headers: { authorization: `Bearer ${TOKEN}` } }));
    expect(((await minted.json()) as { login_path: string }).login_path).toMatch(/^\/login\?code=/);
  });
});
