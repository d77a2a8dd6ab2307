// What an agent meets before any browser work (issue 27, items 2–4), through a real MCP client on
// `gflow mcp run --sandbox` in real Chromium: calls refused on their own arguments keep their own
// codes and take no spend-brake token; a doomed wait=false job is refused at once instead of
// queued; an argument a tool does not take is refused by name.
import { useSandbox } from '@gflow/testkit/sandbox';
import type { McpConnection } from '@gflow/testkit/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const sandbox = useSandbox({ seed: 'mcp-preflight', signIn: true });
let conn: McpConnection;

interface Envelope {
  status?: string;
  task_id?: string;
  error?: { status?: number; type?: string; retryable?: boolean; parameter?: string; detail?: string };
}

const UNKNOWN_MEDIA = '0b7e5c1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e';

beforeAll(async () => {
  conn = await sandbox.mcpStdio(['--sandbox']);
}, 120_000);
afterAll(async () => {
  await conn?.close();
});

async function call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; envelope: Envelope }> {
  const reply = await conn.call(name, args);
  return { isError: reply.isError, envelope: reply.structured as Envelope };
}

describe('MCP calls refused before the browser', () => {
  it('nine refusals (unknown profile, unknown media id) keep their codes and leave the brake full for a valid call', async () => {
    const before = sandbox.sim.received.submits().length;
    for (let i = 0; i < 5; i += 1) {
      const { isError, envelope } = await call('gflow_generate_image', { prompt: 'a fox', profile: `ghost${i}` });
      expect(isError).toBe(true);
      expect(envelope.error, JSON.stringify(envelope)).toMatchObject({ status: 400, retryable: false });
    }
    for (let i = 0; i < 4; i += 1) {
      const { isError, envelope } = await call('gflow_generate_video', {
        prompt: 'a fox runs',
        mode: 'i2v',
        initial_frame: UNKNOWN_MEDIA,
      });
      expect(isError).toBe(true);
      expect(envelope.error, JSON.stringify(envelope)).toMatchObject({ status: 404, retryable: false });
    }
    expect(sandbox.sim.received.submits().length).toBe(before);
    // The default brake holds 8 tokens: had the refusals taken one each, this would be a 429.
    const valid = await call('gflow_generate_image', { prompt: 'a fox in snow' });
    expect(valid.envelope.status, JSON.stringify(valid.envelope)).toBe('completed');
  }, 180_000);

  it('wait=false refuses a doomed job at once (unknown media id, missing frame file) instead of queueing it', async () => {
    const unknown = await call('gflow_generate_video', {
      prompt: 'a fox runs',
      mode: 'i2v',
      initial_frame: UNKNOWN_MEDIA,
      wait: false,
    });
    expect(unknown.isError).toBe(true);
    expect(unknown.envelope.status).not.toBe('pending');
    expect(unknown.envelope.error).toMatchObject({ status: 404, parameter: 'initial_frame' });
    const missing = await call('gflow_generate_video', {
      prompt: 'a fox runs',
      mode: 'i2v',
      initial_frame: `${sandbox.home}/no-such-frame.png`,
      wait: false,
    });
    expect(missing.isError).toBe(true);
    expect(missing.envelope.error).toMatchObject({ status: 400, parameter: 'initial_frame' });
    expect(missing.envelope.task_id).toBeUndefined();
  }, 60_000);

  it('an argument the tool does not take (seed: 42) is refused by name; nothing runs', async () => {
    const before = sandbox.sim.received.submits().length;
    const { isError, envelope } = await call('gflow_generate_image', { prompt: 'a fox', seed: 42 });
    expect(isError).toBe(true);
    expect(envelope.error).toMatchObject({ status: 400, parameter: 'seed' });
    expect(envelope.error?.detail).toContain('"seed"');
    expect(sandbox.sim.received.submits().length).toBe(before);
    const { tools } = await conn.client.listTools();
    const image = tools.find((t) => t.name === 'gflow_generate_image');
    expect(image?.inputSchema).toMatchObject({ additionalProperties: false });
  }, 60_000);
});
