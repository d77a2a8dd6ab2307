// One profile-name rule (issue 17, item 4): core, the catalog and the lease give every name the
// same verdict, so a profile that signs in can also generate (before, core accepted
// bob@example.com and the catalog refused it after the login).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openCatalog } from '@gflow/catalog';
import { exitCodeOf } from '@gflow/errors';
import { acquireProfileLease } from '@gflow/lease';
import { afterAll, describe, expect, it } from 'vitest';
import { validateProfileName } from '../src/home/profiles.js';

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-profile-names-'));
const catalog = openCatalog({ path: ':memory:' });

afterAll(() => {
  catalog.close();
  fs.rmSync(home, { recursive: true, force: true });
});

/** 0 when accepted, else the exit code of the refusal. */
async function verdict(run: () => unknown): Promise<number> {
  try {
    await run();
    return 0;
  } catch (error) {
    return exitCodeOf(error);
  }
}

const NAMES: ReadonlyArray<readonly [string, number]> = [
  ['bob@example.com', 0],
  ['bob+work@example.com', 0],
  ['ok-name', 0],
  ['work.2', 0],
  ['../x', 13],
  ['a/b', 13],
  ['..', 13],
  ['C:evil', 13],
  ['a b', 2],
  ['-dash', 2],
  ['ü', 2],
  ['x'.repeat(65), 2],
];

describe('one verdict for a profile name everywhere', () => {
  it.each(NAMES)('%j: core, catalog and lease all answer %i', async (name, want) => {
    const core = await verdict(() => validateProfileName(name));
    const catalogVerdict = await verdict(() => catalog.profiles.touch(name, path.join(home, 'profile_x')));
    const lease = await verdict(async () => {
      const held = await acquireProfileLease({
        locksDir: path.join(home, 'locks'),
        profileDir: path.join(home, `dir-${NAMES.findIndex(([n]) => n === name)}`),
        profileName: name,
        waitSeconds: 0,
      });
      await held.release();
    });
    expect({ core, catalog: catalogVerdict, lease }).toEqual({ core: want, catalog: want, lease: want });
  });
});
