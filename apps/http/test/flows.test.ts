import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Gflow } from '@gflow/core';
import { afterEach, describe, expect, it } from 'vitest';
import { startGflowHttpServer, type GflowHttpServer } from '../src/index.js';
import { TOKEN, connect, makeGflow } from './helpers.js';

const FLOW = (description: string, greeting: string) => `
name: studio
entries:
  - mcp_tool:
      name: voice_count
      description: ${description}
      input_schema: { type: object, properties: { label: { type: string, default: voices } } }
      steps:
        - { name: voices, operation: gflow_character_voices }
      result: "{{arguments.label}}: {{steps.voices.count}}"
  - mcp_prompt:
      name: greet
      arguments: [{ name: who, required: true, completion: { values: [Ada, Alan, Grace] } }]
      template: "${greeting} {{arguments.who}}"
  - mcp_resource:
      name: shot
      uri_template: "studio://shot/{n}"
      content: "shot {{n}}"
      parameters: [{ name: n, completion: { values: ["1", "2", "10"] } }]
`;

const LIST_CHANGED = [
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
] as const;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(
  config = '',
  files: Record<string, string> = { 'studio.yaml': FLOW('v1', 'Hello') },
): Promise<{ server: GflowHttpServer; gflow: Gflow; flowsDir: string }> {
  const gflow = makeGflow();
  const home = gflow.layout.home;
  if (config) fs.writeFileSync(path.join(home, 'config.toml'), config);
  const flowsDir = gflow.layout.flowsDir;
  fs.mkdirSync(flowsDir, { recursive: true });
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(flowsDir, name), text);
  const server = await startGflowHttpServer(gflow, { host: '127.0.0.1', port: 0 });
  cleanups.push(() => server.close());
  return { server, gflow, flowsDir };
}

function track(client: Client): Client {
  cleanups.push(() => client.close());
  return client;
}

function record(client: Client): string[] {
  const received: string[] = [];
  for (const method of LIST_CHANGED) client.setNotificationHandler(method, () => void received.push(method));
  return received;
}

async function settle(check: () => boolean, settleMs = 600): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > 8_000) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  await new Promise((resolve) => setTimeout(resolve, settleMs));
}

function save(file: string, text: string): void {
  fs.writeFileSync(`${file}.tmp`, text);
  fs.renameSync(`${file}.tmp`, file);
}

describe('declarative flows on gflow serve (real HTTP)', () => {
  it.each(['legacy', 'modern'] as const)('serves every entry kind of <home>/flows to a %s client', async (era) => {
    const { server } = await start();
    const client = track(await connect(`${server.url}/mcp`, era));
    const result = await client.callTool({ name: 'voice_count', arguments: { label: 'presets' } });
    expect(result.structuredContent).toMatchObject({ result: expect.stringMatching(/^presets: \d+$/) });
    const prompt = await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } });
    expect((prompt.messages[0]?.content as { text: string }).text).toBe('Hello Ada');
    const read = async (uri: string) => ((await client.readResource({ uri })).contents[0] as { text: string }).text;
    expect(await read('studio://shot/1')).toBe('shot 1');
    expect(await read('studio://shot/42')).toBe('shot 42');
    expect(
      (await client.complete({ ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'a' } }))
        .completion.values,
    ).toEqual(['Ada', 'Alan']);
    expect(
      (
        await client.complete({
          ref: { type: 'ref/resource', uri: 'studio://shot/{n}' },
          argument: { name: 'n', value: '1' },
        })
      ).completion.values,
    ).toEqual(['1', '10']);
  });

  it.each(['legacy', 'modern'] as const)(
    'hot-reloads: a %s client gets exactly the changed lists (GET stream / listen)',
    { timeout: 30_000 },
    async (era) => {
      const { server, flowsDir } = await start();
      const client = track(await connect(`${server.url}/mcp`, era));
      const received = record(client);
      if (era === 'modern') {
        const subscription = await client.listen({
          toolsListChanged: true,
          promptsListChanged: true,
          resourcesListChanged: true,
        });
        cleanups.push(async () => subscription.close());
      } else {
        expect(server.app.sessionCount()).toBe(1);
        await client.listTools();
        await new Promise((resolve) => setTimeout(resolve, 300)); // the client attaches its GET stream after initialization
      }
      save(path.join(flowsDir, 'studio.yaml'), FLOW('v1', 'Howdy'));
      await settle(() => received.length >= 1);
      expect(received).toEqual(['notifications/prompts/list_changed']);
      expect(
        (
          (await client.getPrompt({ name: 'greet', arguments: { who: 'Grace' } })).messages[0]?.content as {
            text: string;
          }
        ).text,
      ).toBe('Howdy Grace');
      received.splice(0);

      save(path.join(flowsDir, 'studio.yaml'), FLOW('v2', 'Howdy'));
      await settle(() => received.length >= 1);
      expect(received).toEqual(['notifications/tools/list_changed']);
      expect(
        (await client.listTools(undefined, { cacheMode: 'refresh' })).tools.find((t) => t.name === 'voice_count')
          ?.description,
      ).toBe('v2');
      received.splice(0);

      // A bad edit: no notification and the old version answers.
      save(path.join(flowsDir, 'studio.yaml'), FLOW('v3', 'Yo {{arguments.whom}}'));
      await settle(() => (server.flows?.problems().length ?? 0) > 0);
      expect(server.flows?.problems()).toEqual([
        expect.objectContaining({ line: 14, reason: expect.stringContaining('unknown variable "arguments.whom"') }),
      ]);
      expect(received).toEqual([]);
      expect(
        (
          (await client.getPrompt({ name: 'greet', arguments: { who: 'Alan' } })).messages[0]?.content as {
            text: string;
          }
        ).text,
      ).toBe('Howdy Alan');

      fs.rmSync(path.join(flowsDir, 'studio.yaml'));
      await settle(() => received.length >= 3);
      expect([...received].sort()).toEqual([...LIST_CHANGED].sort());
      expect((await client.listPrompts(undefined, { cacheMode: 'refresh' })).prompts.map((p) => p.name)).not.toContain(
        'greet',
      );
    },
  );

  it('reuses modern instances between calls and retires them on a reload', { timeout: 30_000 }, async () => {
    const { server, flowsDir } = await start();
    const client = track(await connect(`${server.url}/mcp`, 'modern'));
    for (let i = 0; i < 5; i++) await client.callTool({ name: 'voice_count', arguments: {} });
    const described = async () =>
      (await client.listTools(undefined, { cacheMode: 'refresh' })).tools.find((t) => t.name === 'voice_count')
        ?.description;
    expect(await described()).toBe('v1');
    const built = server.app.modernPool.built;
    expect(built).toBeLessThanOrEqual(2);
    expect(server.app.modernPool.idle).toBeGreaterThan(0);

    save(path.join(flowsDir, 'studio.yaml'), FLOW('v2', 'Hello'));
    await settle(() => server.app.modernPool.idle === 0, 0);
    expect(await described()).toBe('v2');
    expect(server.app.modernPool.built).toBe(built + 1);
  });

  it('takes path, credentials and the resource URI scheme from config.toml [mcp_server]', async () => {
    const gflowHome = makeGflow().layout.home;
    const tokenFile = path.join(gflowHome, 'daemon-token.json');
    fs.writeFileSync(tokenFile, JSON.stringify({ token: TOKEN }));
    const { server } = await start(
      `[mcp_server]\npath = "/studio/mcp"\ncredentials_path = ${JSON.stringify(tokenFile)}\nresource_uri_scheme = "studio"\n`,
      { 'notes.yaml': '- mcp_resource: { name: readme, content: "hello" }\n' },
    );
    expect(server.path).toBe('/studio/mcp');
    expect((await fetch(`${server.url}/studio/mcp`, { method: 'POST', body: '{}' })).status).toBe(401);
    expect(
      (await fetch(`${server.url}/mcp`, { method: 'POST', headers: { Authorization: `Bearer ${TOKEN}` }, body: '{}' }))
        .status,
    ).toBe(404);
    const client = track(await connect(`${server.url}/studio/mcp`, 'legacy', { token: TOKEN }));
    expect(((await client.readResource({ uri: 'studio://notes/readme' })).contents[0] as { text: string }).text).toBe(
      'hello',
    );
  });

  it('starts without flows when [mcp_server] enabled = false', async () => {
    const { server } = await start('[mcp_server]\nenabled = false\n');
    expect(server.flows).toBeUndefined();
    const client = track(await connect(`${server.url}/mcp`, 'modern'));
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('voice_count');
  });
});
