// The exit-code table of docs/CLI.md (generated from scripts/cliDoc.ts) says what each code means;
// the real binary must agree. Each case runs a refusal through `gflow` and checks that the table's
// row for the code it exited with names the case — so a code moved in the code, or a row changed in
// the table, fails here until the other follows.
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, cli, makeHome } from '@gflow/testkit/cli';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedMedia, seedId } from './catalogSeed.js';

/** `| code | meaning |` rows of the "Exit codes" section; a range row (`14–31, 34–40`) is left out. */
function exitCodeTable(markdown: string): Map<number, string> {
  const section = markdown.split(/^## Exit codes$/m)[1]?.split(/^## /m)[0] ?? '';
  const rows = new Map<number, string>();
  for (const [, code, meaning] of section.matchAll(/^\| (\d+) \| (.+) \|$/gm))
    rows.set(Number(code), meaning as string);
  return rows;
}

const TABLE = exitCodeTable(fs.readFileSync(path.join(REPO_ROOT, 'docs', 'CLI.md'), 'utf8'));
const UNKNOWN = '3f0c2a1e-0000-4000-8000-00000000dead';

interface Case {
  readonly what: string;
  readonly args: readonly string[];
  /** What the table's row for the exit code says of this case. */
  readonly says: string;
  /** Run in the home seeded with one media id under two profiles. */
  readonly seeded?: boolean;
}

const CASES: readonly Case[] = [
  { what: 'an unknown media id (data media)', args: ['data', 'media', UNKNOWN], says: '`data media`' },
  { what: 'an unknown media id (data download)', args: ['data', 'download', UNKNOWN], says: '`data download`' },
  {
    what: 'an upscale of an unknown media id',
    args: ['image', 'upscale', UNKNOWN, '--scale', '2k'],
    says: '`image upscale`',
  },
  {
    what: 'a video upscale of an unknown media id',
    args: ['video', 'upscale', UNKNOWN, '--scale', '1080p'],
    says: '`video upscale`',
  },
  { what: 'an unknown project id', args: ['project', 'show', UNKNOWN], says: '`project show`' },
  { what: 'an unknown task id', args: ['task', 'show', UNKNOWN], says: '`task show`' },
  { what: 'a malformed media id', args: ['data', 'media', '../etc'], says: 'a malformed id' },
  { what: 'a malformed project id', args: ['project', 'show', 'a/b'], says: 'a malformed id' },
  { what: 'an upscale of a malformed id', args: ['image', 'upscale', 'a/b', '--scale', '2k'], says: 'a malformed id' },
  {
    what: 'a media id under two profiles',
    args: ['data', 'media', seedId('shared-1')],
    says: 'catalogued under several profiles',
    seeded: true,
  },
  {
    what: 'an upscale of a media id under two profiles',
    args: ['image', 'upscale', seedId('shared-1'), '--scale', '2k'],
    says: 'catalogued under several profiles',
    seeded: true,
  },
  { what: 'auth status with no profile', args: ['auth', 'status'], says: '`auth status` with no profile' },
  {
    what: 'a listing of an unknown profile',
    args: ['data', 'list', 'images', '--profile', 'ghost'],
    says: 'a missing or unknown profile',
    seeded: true,
  },
  { what: 'an unknown command', args: ['no-such-command'], says: 'unknown command' },
  { what: 'an unknown option', args: ['data', 'media', UNKNOWN, '--no-such-flag'], says: 'unknown command/option' },
];

let seeded: string;
beforeAll(async () => {
  seeded = makeHome('exit-codes');
  await seedMedia(seeded, 'alice', { mediaId: 'shared-1' });
  await seedMedia(seeded, 'bob', { mediaId: 'shared-1' });
});

describe('exit codes agree with the table in docs/CLI.md', () => {
  it('the table is read: one row per single code', () => {
    expect([...TABLE.keys()]).toEqual(expect.arrayContaining([0, 1, 2, 32, 33, 130]));
  });

  for (const c of CASES) {
    it.concurrent(`${c.what}: ${c.args.join(' ')}`, async () => {
      const r = await cli(c.args, c.seeded ? { home: seeded } : {});
      const row = TABLE.get(r.exitCode);
      expect(row, `exit ${r.exitCode} has no row of its own; stderr: ${r.stderr}`).toBeDefined();
      expect(row, `exit ${r.exitCode}; stderr: ${r.stderr}`).toContain(c.says);
    });
  }
});
