import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { redact, redactAndClip, redactText } from './redact.js';

const LEAKS = [
  'Authorization: Bearer ya29.a0AfH6SMBxQ-secret_Value.123',
  'token ya29.c.b0Aaekm1K-long-oauth',
  'Cookie: SAPISID=abc123/xyz; __Secure-3PSID=g.a000; OSID=zzz',
  'set-cookie: __Secure-OSID=qwerty; Path=/; Secure',
  'SID=s3cr3t; HSID=h4sh',
  'https://flow-content.google/video/abc.mp4?Expires=1767225600&Signature=Zm9vYmFy&GoogleAccessId=x',
  'https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4&X-Goog-Signature=deadbeef',
  '{"access_token": "tok-123", "user": "u"}',
];

describe('redactText', () => {
  it.each(LEAKS)('removes the secret from %s', (input) => {
    const out = redactText(input);
    for (const secret of [
      'secret_Value',
      'long-oauth',
      'abc123',
      'a000',
      'zzz',
      'qwerty',
      's3cr3t',
      'h4sh',
      'Zm9vYmFy',
      'deadbeef',
      'tok-123',
    ]) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain('<redacted:');
  });

  it('keeps the non-secret parts readable', () => {
    expect(redactText('https://flow-content.google/video/abc.mp4?Expires=1&Signature=2')).toBe(
      'https://flow-content.google/video/abc.mp4?<redacted:signed-url>',
    );
    expect(redactText('plain words stay')).toBe('plain words stay');
    expect(redactText('https://flow.google.com/project/p1?tab=media')).toBe(
      'https://flow.google.com/project/p1?tab=media',
    );
  });

  it('replaces the home directory and given paths', () => {
    const home = os.homedir();
    expect(redactText(`open ${home}/.local/share/gflow-cli/gflow.db`)).toBe('open ~/.local/share/gflow-cli/gflow.db');
    expect(redactText('/srv/gflow-home/profile_a/x', { paths: ['/srv/gflow-home'] })).toBe(
      '<redacted:path>/profile_a/x',
    );
  });
});

describe('redact (objects)', () => {
  it('replaces secret members whole and redacts nested strings', () => {
    const input = {
      headers: { Authorization: 'Bearer abcdefgh', cookie: 'SID=1' },
      nested: [{ url: 'https://x.test/a?Signature=s' }],
      access_token: 'ya29.zz',
      n: 3,
    };
    const out = redact(input);
    expect(JSON.stringify(out)).not.toMatch(/abcdefgh|SID=1|Signature=s|ya29\.zz/);
    expect(out.n).toBe(3);
    expect(input.headers.Authorization).toBe('Bearer abcdefgh');
  });

  it('survives cycles', () => {
    const a: Record<string, unknown> = { name: 'a' };
    a['self'] = a;
    expect(() => redact(a)).not.toThrow();
  });

  it('clips after redacting', () => {
    const text = `${'x'.repeat(600)} ya29.tail`;
    const out = redactAndClip(text, 500);
    expect(out.length).toBe(500);
    expect(redactAndClip('Bearer tokentokentoken', 500)).not.toContain('tokentoken');
  });
});
