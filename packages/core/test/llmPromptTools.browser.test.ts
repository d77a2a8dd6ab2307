import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exitCodeOf } from '@gflow/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_PROMPT_TOOLS, expandPrompt } from '../src/promptTools/promptTools.js';
import type { Gflow } from '../src/runtime/gflow.js';
import { signInProfile, useHarness } from './simHarness.js';

interface Seen {
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: { model: string; messages: Array<{ role: string; content: string }> };
}

let llm: http.Server;
let base = '';
const seen: Seen[] = [];

beforeAll(async () => {
  // A loopback stand-in for an OpenAI-compatible endpoint: it answers with a marked rewrite.
  llm = http.createServer((req, res) => {
    if (req.url?.startsWith('/redirect')) {
      res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
      return;
    }
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as Seen['body'];
      seen.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
      const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: `LLM-REWRITE(${user})` } }] }));
    });
  });
  await new Promise<void>((resolve) => llm.listen(0, '127.0.0.1', () => resolve()));
  base = `http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => llm.close(() => resolve())));

describe('prompt tools through an OpenAI-compatible endpoint', () => {
  it("asks the model with the tool's instruction, the options, the key and the model name", async () => {
    seen.length = 0;
    const result = await expandPrompt(
      'a fox',
      [{ name: 'cinematic', options: { grade: 'bleach bypass' } }],
      BUILTIN_PROMPT_TOOLS,
      { llm: { baseUrl: base, apiKey: 'k-123', model: 'test-model' } },
    );
    expect(result).toEqual({ expanded: 'LLM-REWRITE(a fox)', applied: ['cinematic'], via: 'llm' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ path: '/v1/chat/completions', authorization: 'Bearer k-123' });
    expect(seen[0]?.body.model).toBe('test-model');
    expect(seen[0]?.body.messages[0]).toMatchObject({ role: 'system' });
    expect(seen[0]?.body.messages[0]?.content).toContain('bleach bypass');
  });

  it('chains tools: each one rewrites the previous result', async () => {
    const result = await expandPrompt('a fox', [{ name: 'photoreal' }, { name: 'camera-move' }], BUILTIN_PROMPT_TOOLS, {
      llm: { baseUrl: base, model: 'm' },
    });
    expect(result.expanded).toBe('LLM-REWRITE(LLM-REWRITE(a fox))');
  });

  it('uses the templates when no endpoint is configured, and refuses unknown tools before anything is sent', async () => {
    seen.length = 0;
    expect((await expandPrompt('a fox', [{ name: 'camera-move' }], BUILTIN_PROMPT_TOOLS)).expanded).toBe(
      'a fox. Camera: slow dolly in, smooth and steady.',
    );
    await expect(
      expandPrompt('a fox', [{ name: 'nope' }], BUILTIN_PROMPT_TOOLS, { llm: { baseUrl: base, model: 'm' } }),
    ).rejects.toMatchObject({ code: 'bad-parameter' });
    expect(seen).toHaveLength(0);
  });

  it.each([
    ['http://example.com/v1', 11],
    ['http://user:secret@127.0.0.1:9/v1', 11],
    ['ftp://127.0.0.1/v1', 11],
  ])('refuses the endpoint %s (exit %i)', async (url, exit) => {
    const error = await expandPrompt('a fox', [{ name: 'cinematic' }], BUILTIN_PROMPT_TOOLS, {
      llm: { baseUrl: url, model: 'm' },
    }).catch((e: unknown) => e);
    expect(exitCodeOf(error)).toBe(exit);
  });

  it('does not follow a redirect', async () => {
    const error = await expandPrompt('a fox', [{ name: 'cinematic' }], BUILTIN_PROMPT_TOOLS, {
      llm: { baseUrl: `${base.replace('/v1', '')}/redirect`, model: 'm' },
    }).catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('network');
  });
});

describe('a generation with an LLM prompt tool, against the simulator', () => {
  const h = useHarness();
  let gflow: Gflow;
  beforeAll(async () => {
    h.sim.scenario.createAccount({ email: 'tools@example.com', credits: 10 });
    gflow = h.gflow('library', { GFLOW_CLI_LLM_BASE_URL: base, GFLOW_CLI_LLM_MODEL: 'test-model' });
    await signInProfile(gflow, h.sim, 'tools', 'tools@example.com');
  }, 60_000);

  it('sends the rewritten prompt to Flow and records both prompts', async () => {
    h.sim.received.clear();
    const result = (await gflow.run('generateImage', {
      prompt: 'a quiet harbour',
      profile: 'tools',
      tools: [{ name: 'creative-director' }],
    })) as { status: string; task_id: string };
    expect(result.status).toBe('completed');
    const submit = h.sim.received.calls('ogiZ0b')[0];
    expect(submit?.inner).toContain('LLM-REWRITE(a quiet harbour)');
    const operationId = gflow.catalog.tasks.get(result.task_id)?.checkpoint?.operation_id;
    expect(operationId).toBeTypeOf('number');
    expect(gflow.catalog.operations.get(operationId as number)).toMatchObject({
      prompt: 'a quiet harbour',
      expandedPrompt: 'LLM-REWRITE(a quiet harbour)',
    });
  }, 120_000);
});
