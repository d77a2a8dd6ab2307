// Generations back to back in one MCP server, at a latency where Flow's UI quirks show (issue 27,
// "a warm page left with a menu open"): each run finds the page the last one left (its warm page,
// menus and panes included) and must tidy it before configuring; a leftover overlay is never
// reported as Flow drift. Real `gflow mcp run --sandbox`, real Chromium.
import { submits, useSandbox } from '@gflow/testkit/sandbox';
import type { McpConnection } from '@gflow/testkit/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const sandbox = useSandbox({ seed: 'mcp-back-to-back', signIn: true });
let conn: McpConnection;

beforeAll(async () => {
  conn = await sandbox.mcpStdio(['--sandbox']);
}, 120_000);
afterAll(async () => {
  sandbox.sim.scenario.setLatency('fast');
  await conn?.close();
});

describe('one MCP server, five generations back to back', () => {
  it('an image, then four clips alternating models and aspects in its project: all complete, none fails as drift', async () => {
    sandbox.sim.scenario.setLatency(0.1);
    const first = await conn.call('gflow_generate_image', { prompt: 'a harbour crane at dusk' });
    expect(first.structured['status'], JSON.stringify(first.structured)).toBe('completed');
    const project = String(first.structured['flow_project_id']);
    const runs = [
      { prompt: 'the crane turns', aspect: '16:9' },
      { prompt: 'gulls circle the crane', aspect: '9:16', model: 'veo_3_1_fast' },
      { prompt: 'night falls on the harbour', aspect: '16:9' },
      { prompt: 'lights come on along the quay', aspect: '9:16', model: 'veo_3_1_fast' },
    ];
    const before = submits(sandbox.sim).length;
    for (const run of runs) {
      const reply = await conn.call('gflow_generate_video', { ...run, project });
      const error = reply.structured['error'] as { type?: string } | undefined;
      expect(error?.type ?? '', `${run.prompt}: ${JSON.stringify(reply.structured)}`).not.toContain(
        'ui-selector-drift',
      );
      expect(reply.structured['status'], `${run.prompt}: ${JSON.stringify(reply.structured)}`).toBe('completed');
    }
    expect(submits(sandbox.sim).length - before).toBe(runs.length);
  }, 240_000);
});
