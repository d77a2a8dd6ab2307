// Issue 23, over HTTP: the same seeded malformed JSON-RPC messages the stdio fuzz sends, POSTed to
// /mcp one by one in both eras. None gets a 5xx; every one whose id can be read is answered with
// a JSON-RPC error carrying that id. Seeded: a failure replays.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { malformedMessages } from '../../../packages/mcp/test/fuzz/malformedMessages.js';
import { startGflowHttpServer, type GflowHttpServer } from '../src/index.js';
import { makeGflow } from './helpers.js';

const SEED = 2311;
const COUNT = 600;

let server: GflowHttpServer;
beforeAll(async () => {
  server = await startGflowHttpServer(makeGflow(), { host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await server?.close();
});

/** The JSON-RPC messages in a reply body: plain JSON, or `data:` lines of an SSE stream. */
function messagesOf(text: string): Array<{ id?: unknown; error?: { code?: number } }> {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    const parsed = JSON.parse(trimmed) as unknown;
    return (Array.isArray(parsed) ? parsed : [parsed]) as Array<{ id?: unknown }>;
  }
  return trimmed
    .split('\n')
    .filter((l) => l.startsWith('data:'))
    .map((l) => JSON.parse(l.slice(5)) as { id?: unknown });
}

describe('HTTP answers malformed JSON-RPC without a 5xx (issue 23)', () => {
  it.each(['legacy', 'modern'] as const)(
    '%s era: 600 seeded malformed messages',
    async (era) => {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      };
      if (era === 'modern') headers['mcp-protocol-version'] = '2026-07-28';
      const statuses = new Map<number, number>();
      const missing: string[] = [];
      for (const c of malformedMessages(SEED + (era === 'modern' ? 1 : 0), COUNT)) {
        const res = await fetch(`${server.url}/mcp`, { method: 'POST', headers, body: c.line });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const body = await res.text();
        if (c.expect.answer !== 'id') continue;
        const { id } = c.expect;
        const answered = messagesOf(body).some((m) => m.id === id && typeof m.error?.code === 'number');
        if (!answered) missing.push(`${res.status} ${c.line} → ${body.slice(0, 160)}`);
      }
      expect([...statuses.keys()].filter((s) => s >= 500)).toEqual([]);
      expect(missing.slice(0, 5)).toEqual([]);
    },
    120_000,
  );
});
