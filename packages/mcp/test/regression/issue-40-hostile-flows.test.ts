// Issue 40: a YAML alias bomb in the flows folder took `gflow serve` down (the watcher's reload
// threw from a timer) and kept `gflow mcp run` from starting ("Unexpected ReferenceError": the
// `yaml` package throws a ReferenceError for an alias bomb, and the first load let it through).
// Every hostile file is now a problem with its file and line, the live flows stay, and the
// problem is listed in gflow://docs/known-issues/flows.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HOSTILE_YAML, hostileYamlFuzz, waitFor } from '@gflow/testkit';
import { connectStdio } from '@gflow/testkit/cli';
import { afterEach, describe, expect, it } from 'vitest';
import { createGflowMcpServer, openFlowRegistry } from '../../src/index.js';
import { closedAfterEach, connectClient } from '../clients.js';
import { makeFlowDir, saveAtomically, textOf } from '../flows/flowFixtures.js';
import { captureLogger, makeTestGflow } from '../testGflow.js';
import { createMcpHandler } from '@modelcontextprotocol/server';

const here = path.dirname(fileURLToPath(import.meta.url));
const TSX = path.resolve(here, '../../../../node_modules/.bin/tsx');
const SCRIPT = path.join(here, '../fixtures/flowsStdioServer.ts');
const GOOD =
  '- mcp_prompt:\n    name: hello\n    template: "Hello {{arguments.who}}"\n    arguments: [{ name: who }]\n';
const FLOWS_URI = 'gflow://docs/known-issues/flows';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const open = closedAfterEach();

function hostileDir(): string {
  const files: Record<string, string> = { 'good.yaml': GOOD };
  HOSTILE_YAML.forEach((c, i) => (files[`hostile-${i}.yaml`] = c.text));
  return makeFlowDir(files);
}

describe('hostile flow files (issue 40)', () => {
  it('the first load rejects each with its line and keeps the good flow live', () => {
    const { lines, logger } = captureLogger();
    const { gflow } = makeTestGflow({ logger });
    cleanups.push(() => gflow.close());
    const dir = hostileDir();
    const registry = openFlowRegistry(gflow, { dirs: [dir], includeHome: false, watch: false });
    cleanups.push(() => registry?.close());
    expect(registry?.prompts().map((p) => p.name)).toEqual(['hello']);
    const problems = registry?.problems() ?? [];
    HOSTILE_YAML.forEach((c, i) => {
      const mine = problems.filter((p) => p.file === path.join(dir, `hostile-${i}.yaml`));
      expect(mine[0], c.name).toMatchObject({ line: c.line, severity: 'error' });
    });
    expect(lines.filter((l) => l.includes('mcp.flows.rejected')).length).toBeGreaterThanOrEqual(HOSTILE_YAML.length);
  });

  it('lists them in gflow://docs/known-issues/flows and the index, with file and line', async () => {
    const { gflow } = makeTestGflow();
    const registry = openFlowRegistry(gflow, { dirs: [hostileDir()], includeHome: false, watch: false });
    cleanups.push(() => registry?.close());
    const handler = createMcpHandler(() => createGflowMcpServer(gflow, { flows: registry }));
    const client = await connectClient(handler, 'modern');
    open.push({ client, handler, gflow });
    const section = textOf((await client.readResource({ uri: FLOWS_URI })).contents);
    expect(section).toContain(`Status: ${HOSTILE_YAML.length} rejected`);
    expect(section).toMatch(/rejected: \S*hostile-0\.yaml:5: YAML: aliases expand past the limit/);
    const index = textOf((await client.readResource({ uri: 'gflow://docs/known-issues' })).contents);
    expect(index).toContain(`- flows — Flow files that did not load — Status: ${HOSTILE_YAML.length} rejected`);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('a FIFO in the flows folder is refused without blocking the load', () => {
    const { gflow } = makeTestGflow();
    cleanups.push(() => gflow.close());
    const dir = makeFlowDir({ 'good.yaml': GOOD });
    execFileSync('mkfifo', [path.join(dir, 'pipe.yaml')]);
    const registry = openFlowRegistry(gflow, { dirs: [dir], includeHome: false, watch: false });
    cleanups.push(() => registry?.close());
    expect(registry?.prompts().map((p) => p.name)).toEqual(['hello']);
  });

  it('seeded hostile mixes (seed 4040) never make a reload throw', () => {
    const { gflow } = makeTestGflow();
    cleanups.push(() => gflow.close());
    const dir = makeFlowDir({ 'good.yaml': GOOD });
    const registry = openFlowRegistry(gflow, { dirs: [dir], includeHome: false, watch: false });
    cleanups.push(() => registry?.close());
    for (const text of hostileYamlFuzz(4040, 150)) {
      fs.writeFileSync(path.join(dir, 'fuzz.yaml'), text);
      expect(() => registry?.reload()).not.toThrow();
      expect(registry?.prompts().some((p) => p.name === 'hello')).toBe(true);
    }
  });

  it('the real watcher survives each dropped in while serving over stdio', { timeout: 180_000 }, async () => {
    const dir = makeFlowDir({ 'good.yaml': GOOD });
    const conn = await connectStdio(
      { command: TSX, args: [SCRIPT], env: { ...(process.env as Record<string, string>), TEST_FLOWS_DIR: dir } },
      { era: 'modern', name: 'hostile-flows' },
    );
    cleanups.push(() => conn.close());
    for (const [i, c] of HOSTILE_YAML.entries()) {
      const file = path.join(dir, `dropped-${i}.yaml`);
      saveAtomically(file, c.text);
      await waitFor(`the rejection of ${c.name}`, () => conn.stderr().includes(`dropped-${i}.yaml:${c.line}: `));
      expect((await conn.client.listTools()).tools.length, c.name).toBeGreaterThan(0);
    }
    const prompt = await conn.client.getPrompt({ name: 'hello', arguments: { who: 'Ada' } });
    expect((prompt.messages[0]?.content as { text: string }).text).toBe('Hello Ada');
    const section = textOf((await conn.client.readResource({ uri: FLOWS_URI })).contents);
    expect(section).toContain(`Status: ${HOSTILE_YAML.length} rejected`);
  });
});
