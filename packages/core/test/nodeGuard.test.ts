// Issue 42: on a Node older than the supported range the library throws a ConfigurationError
// before anything native loads, instead of crashing in the SQLite addon (exit 139 on Node 20).
// Run with the machine's own old Node when it has one on PATH, else the one the tooling provisions.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { provisionNode } from '@gflow/tooling/node';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_NODE_RANGE, satisfiesNodeRange } from '../src/runtime/nodeSupport.js';

const tsx = path.resolve(import.meta.dirname, '../../../node_modules/tsx/dist/loader.mjs');

/** A Node on PATH outside the supported range, else Node 20 from the npm registry (cached in .node/). */
function oldNode(): { binary: string; version: string } {
  const onPath = spawnSync('which', ['-a', 'node'], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
  for (const binary of onPath) {
    const version = spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout.trim().replace(/^v/, '');
    if (version && !satisfiesNodeRange(version, SUPPORTED_NODE_RANGE)) return { binary, version };
  }
  return { binary: provisionNode('20.20.2'), version: '20.20.2' };
}

describe('the library on a Node older than the supported range', () => {
  const node = oldNode();
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-oldnode-'));

  it.each(['createGflow', 'openSandbox'])('%s throws the configuration error (exit 11), no crash', (entry) => {
    expect(satisfiesNodeRange(node.version, SUPPORTED_NODE_RANGE)).toBe(false);
    const result = spawnSync(
      node.binary,
      ['--import', tsx, path.join(import.meta.dirname, 'fixtures/oldNode.ts'), home, entry],
      {
        cwd: import.meta.dirname,
        encoding: 'utf8',
      },
    );
    expect(result.signal, result.stderr).toBeNull();
    expect(result.status, result.stderr).toBe(11);
    expect(JSON.parse(result.stdout)).toEqual({ gflow: true, code: 'configuration' });
    expect(result.stderr).toContain(`gflow needs Node ${SUPPORTED_NODE_RANGE} (this is Node ${node.version})`);
    // Nothing was started: no catalog, no simulator data.
    expect(fs.readdirSync(home)).toEqual([]);
  });
});
