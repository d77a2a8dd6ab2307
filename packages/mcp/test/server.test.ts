import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERAS, closedAfterEach, connectClient, inProcessHandler } from './clients.js';
import { SECRET_TOKEN, TEST_MEDIA_ID, captureLogger, makeTestGflow } from './testGflow.js';

const open = closedAfterEach();

async function setup(era: 'legacy' | 'modern', options: { noSpend?: boolean } = {}) {
  const { gflow } = makeTestGflow(options);
  const handler = inProcessHandler(gflow);
  const client = await connectClient(handler, era);
  open.push({ client, handler, gflow });
  return { client, gflow };
}

type Envelope = { status: string; error: Record<string, unknown> };

describe.each(ERAS)('gflow MCP server (%s era, in-process HTTP)', (era) => {
  it('negotiates the era the client asked for', async () => {
    const { client } = await setup(era);
    expect(client.getProtocolEra()).toBe(era);
  });

  it('lists one tool per operation with annotations from the kind', async () => {
    const { client, gflow } = await setup(era);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      gflow
        .operations()
        .map((op) => op.mcpName)
        .sort(),
    );
    const image = tools.find((t) => t.name === 'gflow_generate_image');
    expect(image?.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: true });
    const models = tools.find((t) => t.name === 'gflow_list_models');
    expect(models?.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(image?.inputSchema).toMatchObject({ type: 'object', required: ['prompt'] });
  });

  it('annotates by what a tool does: read-only only when nothing changes, destructive only when it removes or overwrites', async () => {
    const { client, gflow } = await setup(era);
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t.annotations]));
    for (const op of gflow.operations()) {
      const hints = byName.get(op.mcpName);
      expect(hints, op.mcpName).toMatchObject({
        readOnlyHint: op.kind === 'read' && op.hints?.writesLocalState !== true,
        destructiveHint: op.kind === 'mutate',
        idempotentHint: op.kind === 'read' || op.hints?.idempotent === true,
      });
    }
    // gflow_get_credits with refresh renews a profile's saved cookies: not read-only (still idempotent).
    expect(byName.get('gflow_get_credits')).toMatchObject({ readOnlyHint: false, idempotentHint: true });
    // Set-to-value tools: a repeat changes nothing more. Removing or replacing is not one.
    for (const name of ['gflow_instructions_set_enabled', 'gflow_instructions_toggle_mode'])
      expect(byName.get(name), name).toMatchObject({ idempotentHint: true });
    for (const name of ['gflow_instructions_rm', 'gflow_instructions_apply', 'gflow_instructions_add'])
      expect(byName.get(name), name).toMatchObject({ idempotentHint: false });
    // Files written and Flow assets made: never read-only, never destructive (they only add).
    for (const name of ['gflow_download_media', 'gflow_upscale_image', 'gflow_upscale_video', 'gflow_instructions_add'])
      expect(byName.get(name), name).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    // Removing, replacing and switching cards overwrite what the user had.
    for (const name of ['gflow_instructions_rm', 'gflow_instructions_apply', 'gflow_instructions_set_enabled'])
      expect(byName.get(name), name).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('gflow_character_list')).toMatchObject({ readOnlyHint: true, destructiveHint: false });
  });

  it('no-spend mode never registers the two spending tools', async () => {
    const { client } = await setup(era, { noSpend: true });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('gflow_generate_image');
    expect(names).not.toContain('gflow_generate_video');
    expect(names).toContain('gflow_list_models');
    await expect(client.callTool({ name: 'gflow_generate_image', arguments: { prompt: 'a cat' } })).rejects.toThrow(
      /not found/,
    );
  });

  it("returns a read tool's result as structured content and JSON text", async () => {
    const { client } = await setup(era);
    const result = await client.callTool({ name: 'gflow_list_models', arguments: {} });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as { status: string; image: { models: Array<{ name: string }> } };
    expect(structured.status).toBe('ok');
    expect(structured.image.models.map((m) => m.name)).toContain('nano2');
    const text = (result.content as Array<{ type: string; text?: string }>)[0];
    expect(text?.type).toBe('text');
    expect(JSON.parse(text?.text ?? '')).toEqual(structured);
  });

  it('masks an unexpected error: no path, no token, only the class name', async () => {
    const { client, gflow } = await setup(era);
    const result = await client.callTool({ name: 'gflow_test_explode', arguments: {} });
    expect(result.isError).toBe(true);
    const envelope = result.structuredContent as Envelope;
    expect(envelope.status).toBe('error');
    expect(envelope.error).toMatchObject({
      status: 500,
      retryable: false,
      detail: 'Unexpected TypeError; details were logged to logs/errors.log in the gflow home.',
    });
    const wire = JSON.stringify(result);
    expect(wire).not.toContain('ya29');
    expect(wire).not.toContain(SECRET_TOKEN);
    expect(wire).not.toContain('/home/alice');
    expect(wire).not.toContain('Cookies');
    // The file the sentence names holds the details, under the envelope's instance (issue 40).
    const log = fs.readFileSync(path.join(gflow.layout.logsDir, 'errors.log'), 'utf8');
    const entry = log
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, string>)
      .find((e) => e['instance'] === envelope.error['instance']);
    expect(entry?.['details']).toMatch(/^TypeError: cannot open ~?\/?.*Bearer <redacted:token>/);
  });

  it("keeps a gflow error's problem details (title, status, retryable, remediation_hint)", async () => {
    const { client } = await setup(era);
    const result = await client.callTool({ name: 'gflow_test_auth_expired', arguments: {} });
    expect(result.isError).toBe(true);
    const envelope = result.structuredContent as Envelope;
    expect(envelope.status).toBe('error');
    expect(envelope.error).toMatchObject({
      type: 'https://gflow.dev/errors/auth-expired',
      title: 'Authentication Expired',
      status: 401,
      retryable: false,
      detail: 'The Flow session for this profile has expired.',
    });
    expect(envelope.error['remediation_hint']).toEqual(expect.stringContaining('gflow auth login'));
    expect(envelope.error['message']).toEqual(expect.stringMatching(/^\[AuthExpiredError\] /));
  });

  it("answers bad arguments with gflow's 400 bad-parameter envelope", async () => {
    const { client } = await setup(era);
    const result = await client.callTool({ name: 'gflow_generate_image', arguments: { prompt: '' } });
    expect(result.isError).toBe(true);
    const envelope = result.structuredContent as Envelope;
    expect(envelope.error).toMatchObject({
      type: 'https://gflow.dev/errors/bad-parameter',
      status: 400,
      retryable: false,
      parameter: 'prompt',
    });
  });

  it('refuses an argument the tool does not take (seed: 42) by name, and advertises additionalProperties: false', async () => {
    const { client } = await setup(era);
    const result = await client.callTool({ name: 'gflow_generate_image', arguments: { prompt: 'a cat', seed: 42 } });
    expect(result.isError).toBe(true);
    const envelope = result.structuredContent as Envelope;
    expect(envelope.error).toMatchObject({ status: 400, retryable: false, parameter: 'seed' });
    expect(JSON.stringify(envelope.error)).toContain('Unknown parameter \\"seed\\"');
    const { tools } = await client.listTools();
    for (const tool of tools) expect(tool.inputSchema, tool.name).toMatchObject({ additionalProperties: false });
  });

  it('answers a rate-limited spend with status rate_limited', async () => {
    const { client } = await setup(era);
    const result = await client.callTool({ name: 'gflow_generate_video', arguments: { prompt: 'rate' } });
    expect(result.isError).toBe(true);
    const envelope = result.structuredContent as Envelope;
    expect(envelope.status).toBe('rate_limited');
    expect(envelope.error).toMatchObject({ status: 429, retryable: true, retry_after: 20 });
  });

  it('links the media files of a completed generation and forwards progress', async () => {
    const { client, gflow } = await setup(era);
    const progress: Array<{ progress: number; total?: number | undefined; message?: string | undefined }> = [];
    const result = await client.callTool(
      { name: 'gflow_generate_image', arguments: { prompt: 'a cat' } },
      { onprogress: (p) => void progress.push(p) },
    );
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: 'completed', seed: 7 });
    const links = (result.content as Array<{ type: string; uri?: string; mimeType?: string }>).filter(
      (c) => c.type === 'resource_link',
    );
    expect(links).toHaveLength(2);
    const [link, catalogLink] = links;
    expect(link).toMatchObject({
      uri: expect.stringMatching(/^file:\/\/.*\/images\/cat\.png$/),
      mimeType: 'image/png',
    });
    expect(link?.uri).toContain(encodeURI(gflow.settings.outputDir));
    expect(catalogLink).toMatchObject({
      uri: `gflow://media/${TEST_MEDIA_ID}`,
      name: TEST_MEDIA_ID,
      mimeType: 'image/png',
    });
    expect(progress.length).toBeGreaterThanOrEqual(2);
    const values = progress.map((p) => p.progress);
    expect([...values].sort((a, b) => a - b)).toEqual(values);
    expect(progress[0]?.message).toBe('queued');
    // The last word arrives before the result, not after it (when the client no longer listens).
    expect(progress.at(-1)?.message).toBe('done');
  });

  it('marks a failed generation reply isError without media links', async () => {
    const { client } = await setup(era);
    const result = await client.callTool({ name: 'gflow_generate_image', arguments: { prompt: 'a cat', fail: true } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ status: 'failed', task_id: 't-1' });
    expect((result.content as Array<{ type: string }>).some((c) => c.type === 'resource_link')).toBe(false);
  });

  it('cancels the running operation when the client aborts the call', async () => {
    const { client } = await setup(era);
    const controller = new AbortController();
    const call = client.callTool({ name: 'gflow_test_slow', arguments: { ms: 20_000 } }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    await expect(call).rejects.toThrow();
  });
});

describe('server-side logging', () => {
  it('logs the real text of a masked error as mcp.tool.unexpected_error', async () => {
    const { gflow } = makeTestGflow();
    const capture = captureLogger();
    const { createGflowMcpServer } = await import('../src/index.js');
    const { createMcpHandler } = await import('@modelcontextprotocol/server');
    const handler = createMcpHandler((ctx) => createGflowMcpServer(gflow, { era: ctx.era, logger: capture.logger }));
    const client = await connectClient(handler, 'modern');
    open.push({ client, handler, gflow });
    await client.callTool({ name: 'gflow_test_explode', arguments: {} });
    const line = capture.lines.find((l) => l.includes('mcp.tool.unexpected_error'));
    expect(line).toContain('TypeError: cannot open');
  });
});
