import type { IncomingMessage, ServerResponse } from 'node:http';

export type Req = IncomingMessage;
export type Res = ServerResponse;

export function readBody(req: Req, limit = 40 * 1024 * 1024): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function parseCookies(req: Req): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    out.set(part.slice(0, eq).trim(), decodeURIComponent(part.slice(eq + 1).trim()));
  }
  return out;
}

export interface CookieSpec {
  name: string;
  value: string;
  domain?: string;
  path?: string;
  maxAge?: number;
  httpOnly?: boolean;
  sameSite?: 'Lax' | 'None' | 'Strict';
}

/** Every simulated cookie is Secure: the simulator only speaks https, as Google does. */
export function serializeCookie(c: CookieSpec): string {
  const parts = [`${c.name}=${encodeURIComponent(c.value)}`, `Path=${c.path ?? '/'}`, 'Secure'];
  if (c.domain !== undefined) parts.push(`Domain=${c.domain}`);
  if (c.maxAge !== undefined) parts.push(`Max-Age=${c.maxAge}`);
  if (c.httpOnly === true) parts.push('HttpOnly');
  parts.push(`SameSite=${c.sameSite ?? 'Lax'}`);
  return parts.join('; ');
}

export function addCookies(res: Res, cookies: CookieSpec[]): void {
  const prev = res.getHeader('set-cookie');
  const list = Array.isArray(prev) ? prev : typeof prev === 'string' ? [prev] : [];
  res.setHeader('set-cookie', [...list, ...cookies.map(serializeCookie)]);
}

export function sendHtml(res: Res, status: number, html: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
}

export function sendJson(res: Res, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

export function sendText(res: Res, status: number, text: string, type = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(text);
}

export function redirect(res: Res, status: 301 | 302 | 303 | 307 | 308, location: string): void {
  res.writeHead(status, { location, 'cache-control': 'no-store' });
  res.end();
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

export function requestUrl(req: Req): URL {
  const host = (req.headers.host ?? 'invalid').replace(/:\d+$/, '');
  return new URL(req.url ?? '/', `https://${host}`);
}

export function formDecode(body: string): URLSearchParams {
  return new URLSearchParams(body);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
