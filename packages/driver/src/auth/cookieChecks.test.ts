import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  cookieStoreState,
  hasFlowOsidCookie,
  hasGoogleSessionCookie,
  hasLabsSessionCookie,
  isSqliteHeader,
} from './cookieChecks.js';

const c = (name: string, domain: string, value = 'v') => ({ name, domain, value });

describe('cookie checks', () => {
  it('needs SAPISID on .google.com exactly', () => {
    expect(hasGoogleSessionCookie([c('SAPISID', '.google.com')])).toBe(true);
    expect(hasGoogleSessionCookie([c('SAPISID', 'google.com')])).toBe(true);
    expect(hasGoogleSessionCookie([c('SAPISID', '.evilgoogle.com')])).toBe(false);
    expect(hasGoogleSessionCookie([c('SAPISID', '.google.com', '')])).toBe(false);
    expect(hasGoogleSessionCookie([c('SID', '.google.com')])).toBe(false);
  });
  it('needs OSID or __Secure-OSID on flow.google.com', () => {
    expect(hasFlowOsidCookie([c('__Secure-OSID', 'flow.google.com')])).toBe(true);
    expect(hasFlowOsidCookie([c('OSID', 'flow.google.com')])).toBe(true);
    expect(hasFlowOsidCookie([c('OSID', 'accounts.google.com')])).toBe(false);
    expect(hasFlowOsidCookie([c('OSID', '.google.com')])).toBe(false);
  });
  it('sees the labs NextAuth cookie on labs.google only', () => {
    expect(hasLabsSessionCookie([c('__Secure-next-auth.session-token', 'labs.google')])).toBe(true);
    expect(hasLabsSessionCookie([c('__Secure-next-auth.session-token', 'flow.google.com')])).toBe(false);
  });
  it('recognises the SQLite header', () => {
    expect(isSqliteHeader(Buffer.from('SQLite format 3\u0000rest', 'latin1'))).toBe(true);
    expect(isSqliteHeader(Buffer.from('SQLite format 4\u0000rest', 'latin1'))).toBe(false);
    expect(isSqliteHeader(Buffer.from('short'))).toBe(false);
  });
  it('tells an absent, healthy and corrupt cookie store apart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gflow-cookies-'));
    expect(await cookieStoreState(dir)).toBe('absent');
    await mkdir(join(dir, 'Default', 'Network'), { recursive: true });
    await writeFile(
      join(dir, 'Default', 'Network', 'Cookies'),
      Buffer.from('SQLite format 3\u0000' + 'x'.repeat(100), 'latin1'),
    );
    expect(await cookieStoreState(dir)).toBe('ok');
    await writeFile(join(dir, 'Default', 'Network', 'Cookies'), 'this is not a database at all');
    expect(await cookieStoreState(dir)).toBe('unreadable');
  });
});
