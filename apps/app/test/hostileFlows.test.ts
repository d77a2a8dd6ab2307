// Issue 40, done when: the alias bomb, 10 MB and deep-nesting files (and the other hostile flow
// files of the kit) in the flows folder leave `gflow serve` and `gflow mcp run` up and answering
// tools/list, and each bad file is named with its line.
import fs from 'node:fs';
import path from 'node:path';
import { HOSTILE_YAML, waitFor } from '@gflow/testkit';
import { gflowHttp, gflowStdio, makeHome, startServe } from '@gflow/testkit/cli';
import { afterEach, describe, expect, it } from 'vitest';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A home whose flows folder holds one good flow and every hostile file. */
function hostileHome(): string {
  const home = makeHome('hostile-flows');
  const flows = path.join(home, 'flows');
  fs.mkdirSync(flows, { recursive: true });
  fs.writeFileSync(path.join(flows, 'good.yaml'), '- mcp_prompt:\n    name: hello\n    template: Hello\n');
  HOSTILE_YAML.forEach((c, i) => fs.writeFileSync(path.join(flows, `hostile-${i}.yaml`), c.text));
  return home;
}

function expectEachNamed(stderr: string): void {
  HOSTILE_YAML.forEach((c, i) => expect(stderr, c.name).toContain(`hostile-${i}.yaml:${c.line}: `));
}

describe('hostile flow files in the flows folder (issue 40)', () => {
  it('gflow mcp run starts, answers tools/list and names each bad file with its line', async () => {
    const conn = await gflowStdio([], { home: hostileHome(), name: 'hostile' });
    cleanups.push(() => conn.close());
    const { tools } = await conn.client.listTools();
    expect(tools.map((t) => t.name)).toContain('gflow_list_models');
    expect((await conn.client.listPrompts()).prompts.map((p) => p.name)).toContain('hello');
    expectEachNamed(conn.stderr());
  });

  it('gflow serve starts with them, survives one more dropped in, and keeps answering', async () => {
    const home = hostileHome();
    const serve = await startServe([], { home });
    cleanups.push(() => serve.stop());
    const conn = await gflowHttp(serve, { name: 'hostile' });
    cleanups.push(() => conn.close());
    expect((await conn.client.listTools()).tools.length).toBeGreaterThan(0);
    expectEachNamed(serve.run.stderr());
    fs.writeFileSync(path.join(home, 'flows', 'late-bomb.yaml'), HOSTILE_YAML[0]?.text ?? '');
    await waitFor('the late bomb rejected', () => serve.run.stderr().includes('late-bomb.yaml:5: '));
    expect((await conn.client.listTools()).tools.length).toBeGreaterThan(0);
  });
});
