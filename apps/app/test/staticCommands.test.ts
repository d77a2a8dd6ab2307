// `gflow <command> --json` matches its schema for the commands that need neither a catalog nor the
// sandbox (commandOutputs/staticCases.ts), in a fresh home; concurrently but for telemetry.
import { removeDir } from '@gflow/testkit';
import { makeHome } from '@gflow/testkit/cli';
import { afterAll, beforeAll, describe } from 'vitest';
import { type CommandTree, type Where, caseTools, commandTree, itEachCase } from './commandOutputs/harness.js';
import { STATIC_CASES } from './commandOutputs/staticCases.js';
import { startFakeRegistry } from './fakeRegistry.js';

let tree: CommandTree;
let where: Where;
let registry: Awaited<ReturnType<typeof startFakeRegistry>>;

beforeAll(async () => {
  tree = await commandTree();
  where = { home: makeHome('static-commands'), env: {} };
  registry = await startFakeRegistry('99.1.0');
});

afterAll(async () => {
  await registry?.close();
  if (where) removeDir(where.home);
});

describe('gflow <command> --json matches its schema (static commands, servers, setup)', () => {
  itEachCase(
    STATIC_CASES,
    (label, output) =>
      Object.assign(
        caseTools(
          () => where,
          () => tree,
          output,
          label,
        ),
        { registryUrl: registry.url },
      ),
    60_000,
  );
});
