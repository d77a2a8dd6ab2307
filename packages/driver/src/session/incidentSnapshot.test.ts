import type { Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { parseBatchexecute } from '../wire/batchexecute.js';
import { decodeFormBody } from '../wire/formBody.js';
import { networkLog, redactPageUrl } from './incidentSnapshot.js';
import type { TappedFailure, TappedRequest, TappedResponse } from './wireTap.js';

const URL_BASE = 'https://flow.google.com/_/FlowUi/data/batchexecute';

function fakeRequest(rpcId: string): Request {
  return { url: () => `${URL_BASE}?rpcids=${rpcId}&f.sid=-123456789&bl=boq_x&_reqid=1001&rt=c` } as unknown as Request;
}

function tapped(seq: number, rpcId: string, inner: string, at: number): TappedRequest {
  const body = `f.req=${encodeURIComponent(JSON.stringify([[[rpcId, inner, null, 'generic']]]))}&at=AJpMcsecretcsrf%3A1700000000000`;
  return { seq, at, rpcIds: [rpcId], calls: decodeFormBody(body).calls, request: fakeRequest(rpcId) };
}

function reply(request: TappedRequest, status: number, text: string, at: number): TappedResponse {
  return {
    seq: request.seq + 100,
    at,
    rpcIds: request.rpcIds,
    status,
    headers: { 'set-cookie': 'SID=abc' },
    envelope: parseBatchexecute(text),
    request: request.request,
  };
}

describe('networkLog', () => {
  const signed = 'https://storage.googleapis.com/ai-sandbox/img.png?GoogleAccessId=x@y&Expires=1&Signature=AbCdEf%2B';
  const submit = tapped(
    1,
    'ogiZ0b',
    JSON.stringify({ prompt: 'a harbour', token: 'ya29.a0AfH6SMBsecretsecret' }),
    1_000,
  );
  const poll = tapped(2, 'MZZa6b', '[["w1"]]', 1_500);
  const lost = tapped(3, 'UpteDb', '["q"]', 2_000);
  const envelope = `)]}'\n\n120\n${JSON.stringify([['wrb.fr', 'ogiZ0b', JSON.stringify([[signed]]), null, null, [7, null, [['type.googleapis.com/x', ['PUBLIC_ERROR_UNUSUAL_ACTIVITY']]]]]])}\n`;
  const responses = [reply(submit, 200, envelope, 1_240), reply(poll, 500, ")]}'\n", 1_600)];
  const failures: TappedFailure[] = [
    { at: 2_050, rpcIds: ['UpteDb'], request: lost.request, errorText: 'net::ERR_ABORTED' },
  ];
  const log = networkLog([submit, poll, lost], responses, failures);

  it('pairs each request with its reply or failure, with timing and outcome', () => {
    expect(log.map((e) => [e.rpcIds[0], e.outcome, e.status, e.durationMs])).toEqual([
      ['ogiZ0b', 'ok', 200, 240],
      ['MZZa6b', 'http-error', 500, 100],
      ['UpteDb', 'failed', null, 50],
    ]);
    expect(log[2]?.errorText).toBe('net::ERR_ABORTED');
    expect(log[0]?.responseHead).toContain('PUBLIC_ERROR_UNUSUAL_ACTIVITY');
  });

  it('keeps no query string, csrf token, cookie, OAuth token or signature', () => {
    const text = JSON.stringify(log);
    expect(log[0]?.endpoint).toBe(URL_BASE);
    for (const secret of ['f.sid', '123456789', 'AJpMcsecretcsrf', 'SID=abc', 'ya29.', 'Signature=', 'AbCdEf'])
      expect(text).not.toContain(secret);
    expect(text).toContain('<redacted:signed-url>');
    expect(text).toContain('a harbour');
  });

  it('marks a request without a reply as pending and keeps only the last entries', () => {
    const many = Array.from({ length: 5 }, (_, i) => tapped(i + 1, 'MZZa6b', '[]', i));
    const kept = networkLog(many, [], [], 3);
    expect(kept.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(kept.every((e) => e.outcome === 'pending' && e.durationMs === null && e.responseHead === null)).toBe(true);
  });

  it('clips heads to a bounded size', () => {
    const big = tapped(9, 'ogiZ0b', JSON.stringify({ prompt: 'x'.repeat(5_000) }), 0);
    expect(networkLog([big], [], [])[0]?.requestHead.length).toBeLessThanOrEqual(300);
  });
});

describe('networkLog on a captured-shaped submit (issue 40: network.json kept the reCAPTCHA token)', () => {
  // flow-captures §10 (fZytfe): the page's reCAPTCHA Enterprise token rides in the inner JSON as
  // `[TOKEN, 1]`; within the 300-character head that network.json keeps.
  const token = `03AFcWeA${'7e'.repeat(30)}${'Qx9_'.repeat(400)}`;
  const inner = JSON.stringify([
    [[null, 'wf-1', 73, 96], [null, null, [[['pier']]]], 'veo_3_1_extend_lite', 1, null],
    [null, 22, null, null, null, 'p-1', null, null, null, null, [token, 1]],
    ['u-3', 2, null, ['s-1', 2]],
  ]);
  const entry = networkLog([tapped(1, 'fZytfe', inner, 0)], [], [])[0];

  it('keeps the call readable and the token out', () => {
    expect(entry?.requestHead).toContain('fZytfe');
    expect(entry?.requestHead).toContain('veo_3_1_extend_lite');
    expect(entry?.requestHead).toContain('<redacted:recaptcha>');
    expect(entry?.requestHead).not.toContain('03AFcWeA');
    expect(JSON.stringify(entry)).not.toContain('Qx9_Qx9_');
  });
});

describe('redactPageUrl', () => {
  it('strips a signed query string and keeps a plain project URL', () => {
    expect(redactPageUrl('https://flow.google.com/project/abc')).toBe('https://flow.google.com/project/abc');
    expect(redactPageUrl('https://x.googleusercontent.com/a?Expires=1&Signature=zz')).not.toContain('Signature');
  });
});
