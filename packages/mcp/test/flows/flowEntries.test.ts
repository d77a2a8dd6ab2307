import type { Client } from '@modelcontextprotocol/client';
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { Gflow } from '@gflow/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createGflowMcpServer, openFlowRegistry, type FlowRegistry } from '../../src/index.js';
import { ERAS, connectClient, type Era } from '../clients.js';
import { makeTestGflow } from '../testGflow.js';
import { DEMO_FILES, makeFlowDir, textOf } from './flowFixtures.js';

const open: Array<{ client: Client; handler: McpHttpHandler; gflow: Gflow; registry: FlowRegistry | undefined }> = [];
afterEach(async () => {
  for (const { client, handler, gflow, registry } of open.splice(0)) {
    await client.close();
    await handler.close();
    registry?.close();
    await gflow.close();
  }
});

async function setup(era: Era, files: Record<string, string> = DEMO_FILES) {
  const { gflow } = makeTestGflow();
  const dir = makeFlowDir(files);
  const registry = openFlowRegistry(gflow, { dirs: [dir], includeHome: false, watch: false });
  const handler = createMcpHandler((ctx) => createGflowMcpServer(gflow, { era: ctx.era, flows: registry }));
  const client = await connectClient(handler, era);
  open.push({ client, handler, gflow, registry });
  return { client, registry, dir };
}

describe.each(ERAS)('flow entries over HTTP (%s era)', (era) => {
  it('loads the demo flow without problems and lists every entry next to the built-ins', async () => {
    const { client, registry } = await setup(era);
    expect(registry?.problems()).toEqual([]);
    const tools = (await client.listTools()).tools;
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['model_brief', 'voices_then_bad_tool', 'gflow_list_models']),
    );
    const brief = tools.find((t) => t.name === 'model_brief');
    expect(brief?.inputSchema).toMatchObject({
      type: 'object',
      required: ['subject'],
      properties: { shots: { type: 'integer', default: 2 } },
    });
    expect(brief?.annotations).toMatchObject({ readOnlyHint: true });
    const prompts = (await client.listPrompts()).prompts;
    expect(prompts.map((p) => p.name).sort()).toEqual(['classify', 'create_character', 'expand_prompt', 'explain']);
    expect(prompts.find((p) => p.name === 'explain')?.arguments).toEqual([
      expect.objectContaining({ name: 'query', description: 'The text to explain.', required: true }),
      expect.objectContaining({ name: 'tone', required: false }),
    ]);
    const resources = (await client.listResources()).resources.map((r) => r.uri);
    expect(resources).toEqual(
      expect.arrayContaining(['gflow://demo/guide', 'https://example.com/notes/inline', 'gflow://docs/mcp-guide']),
    );
    const templates = (await client.listResourceTemplates()).resourceTemplates;
    expect(templates.find((t) => t.name === 'account')).toMatchObject({
      uriTemplate: 'gflow://account/{id}/summary',
      mimeType: 'text/markdown',
    });
  });

  it('runs a multi-step tool: arguments, defaults, earlier step results, typed pass-through and a templated result', async () => {
    const { client } = await setup(era);
    const result = await client.callTool({ name: 'model_brief', arguments: { subject: 'a lighthouse' } });
    expect(result.isError).toBeFalsy();
    const out = result.structuredContent as Record<string, unknown>;
    expect(out['shots']).toBe(2);
    expect(out['first_model']).toBe('nano2');
    expect(Array.isArray(out['aspects'])).toBe(true);
    expect(String(out['expanded'])).toContain('a lighthouse in 2 shots');
    expect(String(out['expanded'])).toMatch(/\d+ models/);
  });

  it("validates arguments against input_schema with gflow's 400 envelope", async () => {
    const { client } = await setup(era);
    const missing = await client.callTool({ name: 'model_brief', arguments: {} });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toMatchObject({
      status: 'error',
      error: { status: 400, detail: expect.stringContaining('subject: required') },
    });
    const range = await client.callTool({ name: 'model_brief', arguments: { subject: 'x', shots: 9 } });
    expect(range.structuredContent).toMatchObject({
      error: { status: 400, detail: expect.stringContaining('shots: must be <= 4') },
    });
    const extra = await client.callTool({ name: 'model_brief', arguments: { subject: 'x', colour: 'red' } });
    expect(extra.structuredContent).toMatchObject({
      error: { detail: expect.stringContaining('colour: unknown parameter') },
    });
    // Prototype keys are never parameters (issue 40); an own __proto__ the SDK would drop is
    // noted by the transports in _meta, as a stdio or HTTP client's message would be.
    const proto = await client.callTool({
      name: 'model_brief',
      arguments: { subject: 'x' },
      _meta: { 'dev.gflow/stripped_argument_keys': ['__proto__'] },
    });
    expect(proto.structuredContent).toMatchObject({
      error: { status: 400, detail: expect.stringContaining('__proto__: unknown parameter') },
    });
    const ctor = await client.callTool({
      name: 'model_brief',
      arguments: JSON.parse('{"subject":"x","constructor":1}'),
    });
    expect(ctor.structuredContent).toMatchObject({
      error: { status: 400, detail: expect.stringContaining('constructor: unknown parameter') },
    });
  });

  it('names the failing step in the error envelope', async () => {
    const { client } = await setup(era);
    const result = await client.callTool({ name: 'voices_then_bad_tool', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      status: 'error',
      flow: 'demo',
      step: 'expand',
      error: { status: 400 },
    });
    expect(JSON.parse((result.content[0] as { text: string }).text)).toMatchObject({ step: 'expand' });
  });

  it('reads concrete resources (file content, explicit URI, content not rendered)', async () => {
    const { client } = await setup(era);
    const guide = await client.readResource({ uri: 'gflow://demo/guide' });
    expect(textOf(guide.contents)).toBe('# Guide\nRead me.\n');
    expect(guide.contents[0]).toMatchObject({ mimeType: 'text/markdown' });
    const inline = await client.readResource({ uri: 'https://example.com/notes/inline' });
    expect(textOf(inline.contents)).toBe('inline {{not rendered}}');
  });

  it('renders a templated resource per read with distinct bindings', async () => {
    const { client } = await setup(era);
    const a = await client.readResource({ uri: 'gflow://account/001Qy0abc/summary' });
    const b = await client.readResource({ uri: 'gflow://account/XYZ-9/summary' });
    expect(textOf(a.contents)).toBe('# Account 001Qy0abc\nLoaded via templated resource.\n');
    expect(textOf(b.contents)).toBe('# Account XYZ-9\nLoaded via templated resource.\n');
    expect(a.contents[0]).toMatchObject({ uri: 'gflow://account/001Qy0abc/summary', mimeType: 'text/markdown' });
  });

  it('renders prompts: one template with a default, and few-shot messages', async () => {
    const { client } = await setup(era);
    const explain = await client.getPrompt({ name: 'explain', arguments: { query: 'SELECT 1 & 2 < 3' } });
    expect(explain.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Explain (formal): SELECT 1 & 2 < 3' } },
    ]);
    const casual = await client.getPrompt({ name: 'explain', arguments: { query: 'q', tone: 'casual' } });
    expect((casual.messages[0]?.content as { text: string }).text).toBe('Explain (casual): q');
    const classify = await client.getPrompt({ name: 'classify', arguments: { message: 'My invoice is wrong' } });
    expect(classify.messages.map((m) => [m.role, (m.content as { text: string }).text])).toEqual([
      ['user', 'How much does the enterprise plan cost?'],
      ['assistant', 'sales'],
      ['user', 'My invoice is wrong'],
    ]);
    await expect(client.getPrompt({ name: 'explain', arguments: {} })).rejects.toThrow();
  });

  it('completes from inline values and from a file (case-insensitive prefix, empty returns all)', async () => {
    const { client } = await setup(era);
    const complete = async (
      ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
      name: string,
      value: string,
    ) => (await client.complete({ ref, argument: { name, value } })).completion;
    expect((await complete({ type: 'ref/prompt', name: 'explain' }, 'tone', 'F')).values).toEqual(['formal', 'Fun']);
    expect((await complete({ type: 'ref/prompt', name: 'explain' }, 'tone', '')).values).toEqual([
      'formal',
      'casual',
      'urgent',
      'Fun',
    ]);
    expect((await complete({ type: 'ref/prompt', name: 'classify' }, 'label', 'SU')).values).toEqual([
      'support',
      'Supplies',
    ]);
    expect((await complete({ type: 'ref/prompt', name: 'classify' }, 'label', '')).values).toEqual([
      'sales',
      'support',
      'other',
      'Supplies',
    ]);
    const ids = await complete({ type: 'ref/resource', uri: 'gflow://account/{id}/summary' }, 'id', '001q');
    expect(ids.values).toEqual(['001Qy0abc', '001Qy0abd']);
  });

  it('caps completion at 100 values with total and hasMore', async () => {
    const { client } = await setup(era);
    const all = (
      await client.complete({
        ref: { type: 'ref/resource', uri: 'gflow://account/{id}/summary' },
        argument: { name: 'id', value: '' },
      })
    ).completion;
    expect(all.values).toHaveLength(100);
    expect(all.values[0]).toBe('001Qy0abc');
    expect(all.total).toBe(153);
    expect(all.hasMore).toBe(true);
    const some = (
      await client.complete({
        ref: { type: 'ref/resource', uri: 'gflow://account/{id}/summary' },
        argument: { name: 'id', value: '914' },
      })
    ).completion;
    expect(some.values).toHaveLength(10);
    expect(some.total).toBe(10);
    expect(some.hasMore).toBe(false);
  });
});
