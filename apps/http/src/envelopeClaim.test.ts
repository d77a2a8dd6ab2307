import { isLegacyRequest } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { carriesEnvelopeClaim } from './envelopeClaim.js';

const claim = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
};
const post = (body: unknown, version?: string): Request =>
  new Request('http://127.0.0.1:8000/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(version ? { 'mcp-protocol-version': version } : {}),
    },
    body: JSON.stringify(body),
  });

// Bodies near the line: what the fast path takes must be what the SDK never calls legacy.
const BODIES: ReadonlyArray<readonly [string, unknown]> = [
  ['a modern tools/call', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', _meta: claim } }],
  ['a modern notification', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { _meta: claim } }],
  [
    'a claim with a bad envelope',
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': 7 } },
    },
  ],
  [
    'a claim naming another revision',
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { _meta: { ...claim, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } },
    },
  ],
  ['a claim without jsonrpc', { id: 1, method: 'tools/list', params: { _meta: claim } }],
  [
    'initialize with a claim',
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', _meta: claim } },
  ],
  [
    'initialize',
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    },
  ],
  ['a legacy tools/call', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'x' } }],
  [
    'a response that also names a method',
    { jsonrpc: '2.0', id: 3, method: 'tools/list', result: {}, params: { _meta: claim } },
  ],
  [
    'an error response with a claim',
    { jsonrpc: '2.0', id: 3, error: { code: 1, message: 'x' }, params: { _meta: claim } },
  ],
  ['a batch holding a modern request', [{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: claim } }]],
  ['a claim in params, not in _meta', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: claim }],
  ['null', null],
];

describe('carriesEnvelopeClaim (issue 45: one classification per modern call)', () => {
  it.each(BODIES)('%s: taken only where the SDK would not route it to its legacy leg', async (_name, body) => {
    const legacy = await isLegacyRequest(post(body), body);
    if (carriesEnvelopeClaim(body)) expect(legacy).toBe(false);
  });

  it('takes the modern calls, not initialize, responses, batches or legacy calls', () => {
    const taken = BODIES.filter(([, body]) => carriesEnvelopeClaim(body)).map(([name]) => name);
    expect(taken).toEqual([
      'a modern tools/call',
      'a modern notification',
      'a claim with a bad envelope',
      'a claim naming another revision',
      'a claim without jsonrpc',
    ]);
  });
});
