import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { COOKIE_STORE_PATHS } from '@gflow/flow-facts';

/** The cookie fields the checks read (a Playwright `Cookie` fits). */
export interface CookieLike {
  readonly name: string;
  readonly domain: string;
  readonly value: string;
}

function onDomain(cookie: CookieLike, host: string): boolean {
  const domain = cookie.domain.toLowerCase().replace(/^\./, '');
  return domain === host;
}

/** A `SAPISID` cookie on `.google.com` (a live Google session's marker). */
export function hasGoogleSessionCookie(cookies: readonly CookieLike[]): boolean {
  return cookies.some((c) => c.name === 'SAPISID' && c.value !== '' && onDomain(c, 'google.com'));
}

/** `__Secure-OSID` or `OSID` on flow.google.com (the app's own sign-in cookie). */
export function hasFlowOsidCookie(cookies: readonly CookieLike[]): boolean {
  return cookies.some(
    (c) => (c.name === '__Secure-OSID' || c.name === 'OSID') && c.value !== '' && onDomain(c, 'flow.google.com'),
  );
}

/** The labs NextAuth session cookie (labs.google only; flow.google.com never receives it). */
export function hasLabsSessionCookie(cookies: readonly CookieLike[]): boolean {
  return cookies.some(
    (c) => c.name === '__Secure-next-auth.session-token' && c.value !== '' && onDomain(c, 'labs.google'),
  );
}

const SQLITE_HEADER = 'SQLite format 3\u0000';

/** Whether bytes start with SQLite's 16-byte header. */
export function isSqliteHeader(bytes: Uint8Array): boolean {
  if (bytes.length < 16) return false;
  for (let i = 0; i < 16; i += 1) if (bytes[i] !== SQLITE_HEADER.charCodeAt(i)) return false;
  return true;
}

export type CookieStoreState = 'absent' | 'ok' | 'unreadable';

/**
 * The state of a profile's cookie database: absent (never signed in, which is not a fault), ok, or
 * unreadable (present but not a SQLite file, or not openable) — a local file fault.
 */
export async function cookieStoreState(profileDir: string): Promise<CookieStoreState> {
  let sawAny = false;
  for (const rel of COOKIE_STORE_PATHS) {
    let handle;
    try {
      handle = await open(join(profileDir, rel), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      return 'unreadable';
    }
    sawAny = true;
    try {
      const buf = Buffer.alloc(16);
      const { bytesRead } = await handle.read(buf, 0, 16, 0);
      if (bytesRead === 0) continue; // an empty file Chrome is about to create
      if (!isSqliteHeader(buf.subarray(0, bytesRead))) return 'unreadable';
      return 'ok';
    } catch {
      return 'unreadable';
    } finally {
      await handle.close();
    }
  }
  return sawAny ? 'ok' : 'absent';
}
