import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { REDACTION_RULES, redact, redactAndClip, redactText } from './redact.js';

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

describe('batchexecute bodies (issue 40: the reCAPTCHA token reached network.json)', () => {
  // Shaped as captured (flow-captures §10, fZytfe; flow-wire §3a): the inner JSON carries the
  // page's reCAPTCHA Enterprise token as `[TOKEN, 1]`, the form carries the CSRF token as `at=`.
  const RECAPTCHA = `03AFcWeA${'9f'.repeat(30)}${'Zq_-'.repeat(300)}`;
  const CSRF = 'AJpMio3K8dsl1XrQ0vNn2ty5:1758300000000';
  const inner = JSON.stringify([
    [[null, 'wf-5d0c6a2e', 73, 96], [null, null, [[['a slow dolly along the pier']]]], 'veo_3_1_extend_lite', 1, null],
    [null, 22, null, null, null, 'c0ffee00-0000-4000-8000-000000000001', null, null, null, null, [RECAPTCHA, 1]],
    ['6f1e2d3c-0000-4000-8000-000000000002', 2, null, ['scene-1', 2]],
  ]);
  const fReq = JSON.stringify([[['fZytfe', inner, null, 'generic']]]);
  const raw = `f.req=${encodeURIComponent(fReq)}&at=${encodeURIComponent(CSRF)}&`;
  const decoded = `f.req=${fReq}&at=${CSRF}`;

  it.each([
    ['the raw form body', raw],
    ['the form-decoded body', decoded],
    ['the inner JSON alone (what the incident head and the submit body show)', `fZytfe ${inner}`],
    ['the token on its own', RECAPTCHA],
    ['a labs recaptchaContext', JSON.stringify({ recaptchaContext: { token: RECAPTCHA, applicationType: 'WEB' } })],
  ])('removes the reCAPTCHA token and the at= token from %s', (_what, text) => {
    const out = redactText(text);
    expect(out).not.toContain(RECAPTCHA.slice(0, 40));
    expect(out).not.toContain('Zq_-Zq_-');
    expect(out).not.toContain('AJpMio3K8dsl1XrQ0vNn2ty5');
  });

  it('keeps what a person needs to read the call: rpc id, ids, model key, prompt', () => {
    const out = redactText(decoded);
    for (const kept of ['fZytfe', 'wf-5d0c6a2e', 'veo_3_1_extend_lite', 'a slow dolly along the pier', 'scene-1'])
      expect(out).toContain(kept);
    expect(out).toContain('<redacted:recaptcha>\\",1]');
    expect(out).toContain('at=<redacted:csrf>');
    expect(redactAndClip(`fZytfe ${inner}`, 300)).not.toContain('03AFcWeA9f9f');
  });

  it('lists every rule in the one table, each changing what it names', () => {
    expect(REDACTION_RULES.map((r) => r.name)).toEqual(
      expect.arrayContaining(['recaptcha', 'batchexecute-field', 'opaque-token', 'bearer', 'cookie-pair']),
    );
    expect(redactText(`x ${'A1'.repeat(125)} y`)).toBe('x <redacted:token> y');
    expect(redactText(`x ${'A'.repeat(250)} y`)).toBe(`x ${'A'.repeat(250)} y`);
    expect(redactText('uuid c0ffee00-0000-4000-8000-000000000001 stays')).toContain('c0ffee00-0000-4000-8000');
  });
});

describe('redaction stays linear on hostile text (issue 40)', () => {
  // Before, "x-x-x…" made the cookie-pair rule rescan the run from every position (20 KB: 5 s) and
  // "http://a?http://a?…" did the same to the signed-URL rule: remote text could stall a log line.
  it.each([
    ['x-x-x…', 'x-'.repeat(100_000)],
    ['http://a?…', 'http://a?'.repeat(25_000)],
    ['at=at=…', 'at=at=at='.repeat(25_000)],
    ['ab=cd&…', 'ab=cd&'.repeat(35_000)],
  ])('redacts 200 KB of %s at once', (_what, text) => {
    expect(redactText(text).length).toBeGreaterThan(0);
  });
});
