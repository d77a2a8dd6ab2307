// Moved from src/runtime/gflow.test.ts: it needs a fresh process (a worker that ran other tests has
// loaded the catalog code already), and the tests beside the code start none (docs/TESTING.md).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { removeDir, tempDir } from '@gflow/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const runtimeDir = path.resolve(import.meta.dirname, '../src/runtime');
let home: string;
beforeEach(() => {
  home = tempDir('rt');
});
afterEach(() => {
  removeDir(home);
});

describe('Gflow runtime in a fresh process', () => {
  it('refuses a catalog read before ready() with a message naming the fix (fresh process)', () => {
    // This worker has loaded the catalog code already; a new process has not.
    const entry = pathToFileURL(path.join(runtimeDir, 'createGflow.ts')).href;
    const code = `const { createGflow } = await import(${JSON.stringify(entry)});
const g = createGflow({ surface: 'library', env: { GFLOW_CLI_HOME: ${JSON.stringify(home)} }, cwd: ${JSON.stringify(home)} });
try { g.catalog; console.log('opened'); } catch (error) { console.log(String(error)); }
await g.ready();
console.log(typeof g.catalog.projects.list);`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      cwd: runtimeDir,
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n')).toEqual([
      'Error: gflow.catalog was read before `await gflow.ready()` loaded the catalog code.',
      'function',
    ]);
  });
});
