import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { GallerySessions, LOGIN_CODE_TTL_MS, SESSION_COOKIE, SESSION_TTL_MS } from './galleryAuth.js';
import { daemonGate } from './galleryRoutes.js';
import { escapeHtml, hrefOf, html } from './html.js';

describe('html', () => {
  it('escapes every interpolated value; only markup made by the tag passes as is', () => {
    const prompt = `<img src=x onerror="alert(1)"> & 'quotes' \`tick\``;
    const inner = html`<b>${'<i>'}</b>`;
    const out = html`<p title="${prompt}">${prompt}</p>
      ${inner}`.toString();
    // (prettier lays out the template's markup; whitespace between tags is not what is tested)
    expect(out.replace(/>\s+</g, '><')).toBe(
      '<p title="&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;quotes&#39; &#96;tick&#96;">' +
        '&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;quotes&#39; &#96;tick&#96;</p><b>&lt;i&gt;</b>',
    );
    expect(html`${[1, null, false, undefined, 'a<']}`.toString()).toBe('1a&lt;');
    expect(escapeHtml('"')).toBe('&quot;');
    expect(hrefOf('/media', { q: 'a b&c', kind: undefined, model: '' })).toBe('/media?q=a+b%26c');
  });
});

describe('gallery sessions', () => {
  it('a login code works once, within its time; a session ends after its time', () => {
    let now = 1_000_000;
    const sessions = new GallerySessions(() => now);
    const code = sessions.mintCode();
    expect(sessions.redeem('wrong')).toBeUndefined();
    const session = sessions.redeem(code);
    expect(session).toMatch(/^[\w-]{40,}$/);
    expect(sessions.redeem(code)).toBeUndefined();
    expect(sessions.valid(session)).toBe(true);
    expect(sessions.valid('forged')).toBe(false);
    expect(sessions.valid(undefined)).toBe(false);
    const late = sessions.mintCode();
    now += LOGIN_CODE_TTL_MS + 1;
    expect(sessions.redeem(late)).toBeUndefined();
    now += SESSION_TTL_MS;
    expect(sessions.valid(session)).toBe(false);
  });
});

describe('the daemon gate', () => {
  const TOKEN = 'a-token-of-24-characters';
  const sessions = new GallerySessions();
  const app = new Hono();
  app.use(
    '*',
    daemonGate(TOKEN, sessions, (path) => path === '/mcp'),
  );
  app.all('*', (c) => c.text('inside'));
  const get = (path: string, headers: Record<string, string> = {}) =>
    app.fetch(new Request(`http://127.0.0.1${path}`, { headers }));

  it('lets the bearer token in everywhere, and a session cookie into the gallery only', async () => {
    expect((await get('/mcp', { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    expect((await get('/', { authorization: `bearer ${TOKEN}` })).status).toBe(200);
    const session = sessions.redeem(sessions.mintCode()) ?? '';
    const cookie = { cookie: `${SESSION_COOKIE}=${session}` };
    expect((await get('/media', cookie)).status).toBe(200);
    expect((await get('/files/x', cookie)).status).toBe(200);
    const mcp = await get('/mcp', cookie);
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get('www-authenticate')).toBe('Bearer realm="gflow"');
  });

  it('refuses everything else: no credentials, a wrong token, a forged cookie; /login checks its own code', async () => {
    for (const headers of [{}, { authorization: 'Bearer nope' }, { cookie: `${SESSION_COOKIE}=forged` }]) {
      const page = await get('/', headers);
      expect(page.status).toBe(401);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(await page.text()).toContain('gflow gallery');
      expect((await get('/mcp', headers)).status).toBe(401);
      expect((await get('/gallery/health', headers)).status).toBe(401);
    }
    expect((await get('/login?code=anything')).status).toBe(200);
  });
});
