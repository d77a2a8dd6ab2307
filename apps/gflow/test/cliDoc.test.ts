import fs from 'node:fs';
import path from 'node:path';
import { buildCli, walkCli } from '@gflow/cli';
import { describe, expect, it } from 'vitest';
import { mcpRunCommand } from '../src/commands/mcpRunCommand.js';
import { serveCommand } from '../src/commands/serveCommand.js';
import { APP_DIR } from './cliHarness.js';

describe('docs/CLI.md', () => {
  it('has a section for every command of the tree (regenerate: pnpm --filter @gflow/app run docs:cli)', async () => {
    const doc = fs.readFileSync(path.join(APP_DIR, '..', '..', 'docs', 'CLI.md'), 'utf8');
    const root = buildCli({ version: '0.0.0', extraCommands: { 'mcp run': mcpRunCommand, serve: serveCommand } });
    const missing = (await walkCli(root)).map((l) => `### gflow ${l.path.join(' ')}`).filter((heading) => !doc.includes(`${heading}\n`));
    expect(missing).toEqual([]);
  });
});
