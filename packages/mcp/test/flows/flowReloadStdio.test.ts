import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectStdio } from '@gflow/testkit/cli';
import { afterEach, describe, expect, it } from 'vitest';
import { makeFlowDir, recordListChanged, saveAtomically, settle, textOf } from './flowFixtures.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const TSX = path.resolve(here, '../../../../node_modules/.bin/tsx');
const SCRIPT = path.join(here, '../fixtures/flowsStdioServer.ts');

const TOOLS_AND_PROMPT = (description: string, greeting: string) => `
- mcp_tool:
    name: voices
    description: ${description}
    steps: [{ operation: characterVoices }]
    result: { count: "{{steps.step1.count}}" }
- mcp_prompt:
    name: greet
    arguments: [{ name: who, required: true }]
    template: "${greeting} {{arguments.who}}"
`;

const RESOURCE = `
- mcp_resource:
    name: note
    content: "a note"
`;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(era: 'legacy' | 'modern') {
  const dir = makeFlowDir({ 'a.yaml': TOOLS_AND_PROMPT('v1', 'Hello'), 'b.yaml': RESOURCE });
  const conn = await connectStdio(
    { command: TSX, args: [SCRIPT], env: { ...(process.env as Record<string, string>), TEST_FLOWS_DIR: dir } },
    { era, name: 'flows-stdio' },
  );
  const { client, stderr } = conn;
  cleanups.push(() => conn.close());
  expect(client.getProtocolEra()).toBe(era);
  const notes = recordListChanged(client);
  if (era === 'modern') {
    const subscription = await client.listen({
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: true,
    });
    cleanups.push(async () => subscription.close());
  }
  const reloads = (): number =>
    stderr()
      .split('\n')
      .filter((line) => line.includes('"mcp.flows.reloaded"') || line.includes('"mcp.flows.rejected"')).length;
  return { dir, client, notes, stderr, reloads };
}

describe.each(['legacy', 'modern'] as const)('hot reload over stdio through the real watcher (%s era)', (era) => {
  it('sends exactly the list_changed of the lists an edit changed', { timeout: 180_000 }, async () => {
    const { dir, client, notes, reloads, stderr } = await start(era);
    const refresh = { cacheMode: 'refresh' } as const;
    expect((await client.listTools(undefined, refresh)).tools.find((t) => t.name === 'voices')?.description).toBe('v1');

    // Only the prompt's text changes: prompts, nothing else.
    saveAtomically(path.join(dir, 'a.yaml'), TOOLS_AND_PROMPT('v1', 'Hi'));
    await settle(() => notes.received.length >= 1);
    expect(notes.received).toEqual(['notifications/prompts/list_changed']);
    const greeting = await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } });
    expect((greeting.messages[0]?.content as { text: string }).text).toBe('Hi Ada');
    notes.clear();

    // Tool and prompt change together: one of each.
    saveAtomically(path.join(dir, 'a.yaml'), TOOLS_AND_PROMPT('v2', 'Hey'));
    await settle(() => notes.received.length >= 2);
    expect([...notes.received].sort()).toEqual([
      'notifications/prompts/list_changed',
      'notifications/tools/list_changed',
    ]);
    expect((await client.listTools(undefined, refresh)).tools.find((t) => t.name === 'voices')?.description).toBe('v2');
    notes.clear();

    // A new file with a templated resource: resources only.
    fs.writeFileSync(
      path.join(dir, 'c.yaml'),
      '- mcp_resource:\n    name: shot\n    uri_template: "gflow://c/shot/{n}"\n    content: "shot {{n}}"\n',
    );
    await settle(() => notes.received.length >= 1);
    expect(notes.received).toEqual(['notifications/resources/list_changed']);
    expect(textOf((await client.readResource({ uri: 'gflow://c/shot/7' })).contents)).toBe('shot 7');
    notes.clear();

    // A broken edit: rejected with file and line, no notification, the old version stays live.
    const before = reloads();
    saveAtomically(
      path.join(dir, 'a.yaml'),
      TOOLS_AND_PROMPT('v3', 'Yo').replace('operation: characterVoices', 'operation: brewCoffee'),
    );
    await settle(() => reloads() > before);
    expect(notes.received).toEqual([]);
    expect(stderr()).toMatch(/a\.yaml:5: unknown operation \\"brewCoffee\\"/);
    expect((await client.callTool({ name: 'voices', arguments: {} })).structuredContent).toMatchObject({
      count: expect.any(Number),
    });
    expect((await client.listTools(undefined, refresh)).tools.find((t) => t.name === 'voices')?.description).toBe('v2');

    // Removing a file: resources only; rewriting a file with the same text: nothing.
    fs.rmSync(path.join(dir, 'b.yaml'));
    await settle(() => notes.received.length >= 1);
    expect(notes.received).toEqual(['notifications/resources/list_changed']);
    expect((await client.listResources(undefined, refresh)).resources.map((r) => r.uri)).not.toContain(
      'gflow://b/note',
    );
    notes.clear();
    fs.writeFileSync(path.join(dir, 'c.yaml'), fs.readFileSync(path.join(dir, 'c.yaml')));
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(notes.received).toEqual([]);
  });
});
