// `gflow <command> --json` matches its schema for the commands that read or prune a real catalog
// (commandOutputs/catalogCases.ts), on one seeded home, concurrently.
import { removeDir } from '@gflow/testkit';
import { makeHome } from '@gflow/testkit/cli';
import { afterAll, beforeAll, describe } from 'vitest';
import { CATALOG_CASES, seedCatalog } from './commandOutputs/catalogCases.js';
import { type CommandTree, type Where, caseTools, commandTree, itEachCase } from './commandOutputs/harness.js';

let tree: CommandTree;
let where: Where;

beforeAll(async () => {
  tree = await commandTree();
  where = { home: makeHome('catalog-commands'), env: {} };
  await seedCatalog(where.home);
});

afterAll(() => {
  if (where) removeDir(where.home);
});

describe('gflow <command> --json matches its schema (catalog commands, a seeded home)', () => {
  itEachCase(
    CATALOG_CASES,
    (label, output) =>
      caseTools(
        () => where,
        () => tree,
        output,
        label,
      ),
    60_000,
  );
});
