import fs from 'node:fs';
import path from 'node:path';
import { buildCli, walkCli } from '@gflow/cli';
import { describe, expect, it } from 'vitest';
import { APP_COMMANDS } from '../src/appCommands.js';

const APP_DIR = path.resolve(import.meta.dirname, '..');

describe('docs/CLI.md', () => {
  it('has a section for every command of the tree (regenerate: pnpm --filter @gflow/app run docs:cli)', async () => {
    const doc = fs.readFileSync(path.join(APP_DIR, '..', '..', 'docs', 'CLI.md'), 'utf8');
    const root = buildCli({ version: '0.0.0', extraCommands: APP_COMMANDS });
    const missing = (await walkCli(root))
      .map((l) => `### gflow ${l.path.join(' ')}`)
      .filter((heading) => !doc.includes(`${heading}\n`));
    expect(missing).toEqual([]);
  });

  it('names no command the tree lacks, and says of none that it is not shipped (issue 23)', async () => {
    const docs = ['CLI.md', 'MCP.md', 'CONFIGURATION.md', 'LIBRARY.md', 'KNOWN_ISSUES.md'].map((f) =>
      fs.readFileSync(path.join(APP_DIR, '..', '..', 'docs', f), 'utf8'),
    );
    const root = buildCli({ version: '0.0.0', extraCommands: APP_COMMANDS });
    const leaves = (await walkCli(root)).map((l) => l.path.join(' '));
    // Every command path: the leaves and the groups above them.
    const paths = new Set(
      leaves.flatMap((leaf) => leaf.split(' ').map((_, i, words) => words.slice(0, i + 1).join(' '))),
    );
    const unknown: string[] = [];
    for (const doc of docs) {
      // `gflow <command words> …` inside backticks: the words up to the first flag or argument.
      for (const m of doc.matchAll(/`gflow ((?:[a-z][a-z0-9-]*)(?: [a-z][a-z0-9-]*)*)/g)) {
        const words = (m[1] ?? '').split(' ');
        let depth = 0;
        while (depth < words.length && paths.has(words.slice(0, depth + 1).join(' '))) depth += 1;
        const matched = words.slice(0, depth).join(' ');
        // Unknown when nothing matched, or a group is followed by a word that is not one of its commands.
        if (depth === 0 || (!leaves.includes(matched) && depth < words.length)) unknown.push(m[0]);
      }
    }
    expect([...new Set(unknown)]).toEqual([]);
    for (const doc of docs) expect(doc).not.toMatch(/not shipped yet|needs the core operation|has not shipped/i);
  });
});
