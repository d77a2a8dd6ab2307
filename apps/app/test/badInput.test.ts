// `gflow <command> --json` on bad input prints one problem document whose title, status, exit code
// and retryable flag are its type's (commandOutputs/badInputCases.ts); the refusals that need the
// sandbox's session run in sandboxCommands.browser.test.ts.
import { type ErrorCode, retryableForCode } from '@gflow/errors';
import { removeDir } from '@gflow/testkit';
import { makeHome } from '@gflow/testkit/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_FAILURES } from './commandOutputs/badInputCases.js';
import { type Where, expectProblem } from './commandOutputs/harness.js';

let where: Where;
beforeAll(() => {
  where = { home: makeHome('bad-input'), env: {} };
});
afterAll(() => {
  if (where) removeDir(where.home);
});

describe('gflow <command> --json on bad input prints one problem document', () => {
  for (const f of LOCAL_FAILURES) {
    it.concurrent(
      `${f.name ?? f.args().join(' ')} → ${f.code}, exit ${f.exit}`,
      async () => {
        const problem = await expectProblem(where, f.args(), { code: f.code, exit: f.exit });
        expect(problem['retryable']).toBe(retryableForCode(f.code as ErrorCode));
      },
      60_000,
    );
  }
});
