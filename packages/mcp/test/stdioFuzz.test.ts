// Issue 23: every malformed JSON-RPC message that carries an id is answered over stdio (both eras),
// unparseable lines get -32700 with id null, stdout carries JSON-RPC only, and the server still
// serves afterwards. Seeded: a failure replays.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '@gflow/testkit';
import { describe, expect, it } from 'vitest';
import { malformedMessages } from './fuzz/malformedMessages.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const TSX = path.resolve(here, '../../../node_modules/.bin/tsx');
const SCRIPT = path.join(here, 'fixtures/stdioServer.ts');
const SEED = 2311;
const COUNT = 3000;

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'fuzz', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface Reply {
  readonly id: string | number | null;
  readonly error?: { code: number };
  readonly result?: unknown;
}

/** Starts the stdio server and collects every line it writes to stdout (each must be JSON-RPC). */
function startServer(): {
  child: ChildProcessWithoutNullStreams;
  replies: Reply[];
  nonJson: string[];
  send(line: string): void;
} {
  const child = spawn(TSX, [SCRIPT], { env: process.env, stdio: ['pipe', 'pipe', 'pipe'] });
  const replies: Reply[] = [];
  const nonJson: string[] = [];
  let buffered = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    let nl = buffered.indexOf('\n');
    while (nl >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      nl = buffered.indexOf('\n');
      try {
        const msg = JSON.parse(line) as Reply & { jsonrpc?: string };
        if (msg.jsonrpc !== '2.0') nonJson.push(line);
        else replies.push(msg);
      } catch {
        nonJson.push(line);
      }
    }
  });
  child.stderr.resume();
  return { child, replies, nonJson, send: (line) => void child.stdin.write(`${line}\n`) };
}

describe('stdio answers malformed JSON-RPC (issue 23)', () => {
  it.each(['legacy', 'modern'] as const)(
    '%s era: 3000 seeded malformed messages, every id answered, then tools/list still works',
    async (era) => {
      const server = startServer();
      try {
        if (era === 'legacy') {
          server.send(
            JSON.stringify({
              jsonrpc: '2.0',
              id: 'open',
              method: 'initialize',
              params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
            }),
          );
          await waitFor('initialize', () => server.replies.some((r) => r.id === 'open'));
          server.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
        } else {
          server.send(
            JSON.stringify({ jsonrpc: '2.0', id: 'open', method: 'server/discover', params: { _meta: MODERN_META } }),
          );
          await waitFor('server/discover', () => server.replies.some((r) => r.id === 'open'));
        }
        const cases = malformedMessages(SEED + (era === 'modern' ? 1 : 0), COUNT);
        for (const c of cases) server.send(c.line);
        const final = {
          jsonrpc: '2.0',
          id: 'final',
          method: 'tools/list',
          params: era === 'modern' ? { _meta: MODERN_META } : {},
        };
        server.send(JSON.stringify(final));
        await waitFor('tools/list after the fuzz', () => server.replies.some((r) => r.id === 'final'));

        const byId = new Map<string | number, Reply[]>();
        for (const r of server.replies) if (r.id !== null) byId.set(r.id, [...(byId.get(r.id) ?? []), r]);
        const withId = cases.filter((c) => c.expect.answer === 'id');
        const unanswered = withId.filter((c) => c.expect.answer === 'id' && (byId.get(c.expect.id)?.length ?? 0) !== 1);
        expect(unanswered.map((c) => c.line).slice(0, 5)).toEqual([]);
        for (const c of withId)
          if (c.expect.answer === 'id') expect(byId.get(c.expect.id)?.[0]?.error?.code).toBe(-32600);
        const nullAnswers = server.replies.filter((r) => r.id === null);
        for (const code of [-32700, -32600]) {
          expect(nullAnswers.filter((r) => r.error?.code === code).length).toBe(
            cases.filter((c) => c.expect.answer === 'null' && c.expect.code === code).length,
          );
        }
        expect(server.nonJson).toEqual([]);
        const tools = (byId.get('final')?.[0]?.result as { tools?: Array<{ name: string }> } | undefined)?.tools ?? [];
        expect(tools.map((t) => t.name)).toContain('gflow_list_models');
        expect(server.child.exitCode).toBeNull();
      } finally {
        server.child.kill();
      }
    },
    120_000,
  );
});

describe('stdio refuses prototype keys as tool arguments (issue 40)', () => {
  it.each(['legacy', 'modern'] as const)(
    '%s era: __proto__, constructor and prototype get the 400 bad-parameter envelope, and nothing runs',
    async (era) => {
      const server = startServer();
      try {
        const meta = era === 'modern' ? { _meta: MODERN_META } : {};
        if (era === 'legacy') {
          server.send(
            JSON.stringify({
              jsonrpc: '2.0',
              id: 'open',
              method: 'initialize',
              params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
            }),
          );
          await waitFor('initialize', () => server.replies.some((r) => r.id === 'open'));
          server.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
        }
        const keys = ['__proto__', 'constructor', 'prototype'];
        for (const key of keys) {
          // Written by hand: JSON.stringify of an object literal would not keep an own __proto__.
          const args = `{"prompt":"a cat",${JSON.stringify(key)}:{"fail":true}}`;
          const params = JSON.stringify({ name: 'gflow_generate_image', ...meta }).slice(0, -1);
          server.send(
            `{"jsonrpc":"2.0","id":${JSON.stringify(key)},"method":"tools/call","params":${params},"arguments":${args}}}`,
          );
        }
        await waitFor('the three answers', () => keys.every((key) => server.replies.some((r) => r.id === key)));
        for (const key of keys) {
          const result = server.replies.find((r) => r.id === key)?.result as {
            isError?: boolean;
            structuredContent?: { error?: { status?: number; parameter?: string; detail?: string } };
          };
          expect(result?.isError, key).toBe(true);
          expect(result?.structuredContent?.error, key).toMatchObject({ status: 400, parameter: key });
          expect(result?.structuredContent?.error?.detail, key).toContain(`Unknown parameter "${key}"`);
        }
      } finally {
        server.child.kill();
      }
    },
    60_000,
  );
});
