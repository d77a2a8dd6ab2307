// Issue 16: one supported Node range. Every engines.node in the workspace is the
// root's, the pinned versions sit inside it on the two supported lines, and the
// docs no longer claim Node 20.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { satisfiesNodeRange } from '../../apps/app/bin/nodeSupport.js';
import * as library from '../../packages/core/src/runtime/nodeSupport.ts';
import { pinnedVersions, supportedRange } from '../scripts/node.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const manifests = execFileSync('git', ['ls-files', '*package.json'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && !f.includes('node_modules/'));

describe('the supported Node range', () => {
  it('is the root range ^22.19.0 || >=24 (better-sqlite3 13 >=22, vitest ^22 || >=24, eslint ^22.13 || >=24)', () => {
    expect(supportedRange()).toBe('^22.19.0 || >=24');
  });

  it.each(manifests)('%s declares no other engines.node', (file) => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));
    if (pkg.engines?.node !== undefined) expect(pkg.engines.node).toBe(supportedRange());
  });

  it('pins one version on each supported line, both inside the range', () => {
    const { pinned, secondLine } = pinnedVersions();
    expect(pinned.split('.')[0]).toBe('24');
    expect(secondLine.split('.')[0]).toBe('22');
    expect(satisfiesNodeRange(pinned, supportedRange())).toBe(true);
    expect(satisfiesNodeRange(secondLine, supportedRange())).toBe(true);
  });

  it('no doc or manifest still claims Node 20', () => {
    const files = execFileSync('git', ['ls-files', '*.md', '*package.json'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    const claims = files.filter((f) => /Node (≥|>=) ?20|>= ?20\.\d/.test(fs.readFileSync(path.join(root, f), 'utf8')));
    expect(claims).toEqual([]);
  });
});

describe("the library's own check (issue 42) and the binary's launcher", () => {
  it('read the same range and give the same verdicts', () => {
    expect(library.SUPPORTED_NODE_RANGE).toBe(supportedRange());
    const versions = ['18.20.0', '20.20.2', '22.18.0', '22.19.0', '22.23.3', '23.11.1', '24.0.0', '24.21.0', '26.1.0'];
    for (const range of [supportedRange(), '>=18 <20', '~22.5', '24.x'])
      for (const version of versions)
        expect(library.satisfiesNodeRange(version, range), `${version} ${range}`).toBe(
          satisfiesNodeRange(version, range),
        );
  });
});
