// `gflow <command> --json --sandbox` matches its schema for every command that drives Flow
// (commandOutputs/sandboxCases.ts): against one simulator in this process (the kit's sandbox: one
// sandbox home, signed in by the first case), chained in order: project → image → video →
// upscale/download. Then a failed generation's envelope, the refusals that need the session, and
// last a signed-out `auth status`.
import { ERROR_TYPE_BASE, type ErrorCode, retryableForCode } from '@gflow/errors';
import { SANDBOX_EMAIL, useSandbox } from '@gflow/testkit/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CommandTree,
  type Where,
  caseTools,
  commandTree,
  describeRun,
  expectProblem,
  expectValid,
  itEachCase,
  operationNamed,
  runIn,
} from './commandOutputs/harness.js';
import { SANDBOX_CASES, SANDBOX_FAILURES } from './commandOutputs/sandboxCases.js';
import * as S from './outputSchemas.js';

const sandbox = useSandbox({ seed: 'command-outputs' });
const where = (): Where => ({ home: sandbox.home, env: sandbox.env() });
let tree: CommandTree;

beforeAll(async () => {
  tree = await commandTree();
});

describe('gflow <command> --json matches its schema (the sandbox chain, in order)', () => {
  itEachCase(
    SANDBOX_CASES,
    (label, output) =>
      Object.assign(
        caseTools(where, () => tree, output, label),
        { sim: sandbox.sim },
      ),
    150_000,
  );
});

describe('a failed generation with --json keeps the task envelope', () => {
  it('image t2i refused by content policy: the generateImage output, its error a problem document, exit 5', async () => {
    sandbox.sim.scenario.setFailure(SANDBOX_EMAIL, 'content_policy', { times: 1 });
    const r = await runIn(where(), ['image', 't2i', 'something the policy refuses', '--json'], { sandbox: true });
    const payload = JSON.parse(r.stdout) as { status: string; error: { type: string } };
    expectValid(operationNamed('generateImage').output, payload, 'failed image t2i');
    expect(payload.status, describeRun(['image t2i (refused)'], r)).toBe('failed');
    expectValid(S.problemDocument, payload.error, 'failed image t2i error');
    expect(payload.error.type).toBe(`${ERROR_TYPE_BASE}content-policy`);
    expect(payload.error, 'every envelope carries its status, content policy too').toMatchObject({ status: 422 });
    expect(r.exitCode).toBe(5);
    expect(S.exitCodeOfProblem(payload.error)).toBe(r.exitCode);
  }, 120_000);
});

describe('gflow <command> --json --sandbox on bad input prints one problem document', () => {
  // The sandbox refusals take the profile's lease: one at a time.
  for (const f of SANDBOX_FAILURES) {
    it(`${f.name ?? f.args().join(' ')} → ${f.code}, exit ${f.exit}`, async () => {
      const problem = await expectProblem(where(), f.args(), { code: f.code, exit: f.exit, sandbox: true });
      expect(problem['retryable']).toBe(retryableForCode(f.code as ErrorCode));
    }, 60_000);
  }
});

describe('auth status when the session is gone (last: it signs the sandbox account out)', () => {
  it('prints the authStatus verdict for the profile it probed, its error a problem document, exit 1', async () => {
    sandbox.sim.scenario.signOut(SANDBOX_EMAIL);
    const r = await runIn(where(), ['auth', 'status', '--json'], { sandbox: true });
    expect(r.exitCode, describeRun(['auth status (signed out)'], r)).toBe(1);
    const payload = JSON.parse(r.stdout) as { status: string; profile: string; error: { type: string } };
    expectValid(operationNamed('authStatus').output, payload, 'auth status (signed out)');
    expect(payload.status).not.toBe('authenticated');
    expect(payload.status).toBe(String(payload.error.type).slice(ERROR_TYPE_BASE.length).replace(/-/g, '_'));
    expect(payload.profile).toBe('sandbox');
    expectValid(S.problemDocument, payload.error, 'auth status (signed out) error');
  }, 60_000);
});
