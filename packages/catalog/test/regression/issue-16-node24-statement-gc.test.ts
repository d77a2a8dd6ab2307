// Issue 16: better-sqlite3 12 aborted the process on Node ≥ 24.19 when a statement's
// wrapper was collected outside a JS frame (idle GC). The catalog runs on
// better-sqlite3 13 (Node-API). This drives a real child process on the pinned
// Node 24 through many prepared statements, closes, forces collections and checks
// it exits 0 with no signal — on whatever Node runs the suite.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pinnedVersions, provisionNode } from '@gflow/tooling/node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.js';

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));
const CHURN = path.join(PACKAGE_DIR, 'test', 'fixtures', 'statementChurn.ts');

interface ChildOutcome {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runOn(node: string, args: readonly string[]): ChildOutcome {
  const r = spawnSync(node, [...args], { cwd: PACKAGE_DIR, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** A clean exit: code 0, no signal, no native assertion on stderr. */
function expectCleanExit(outcome: ChildOutcome): void {
  expect(outcome.stderr).not.toMatch(/Assertion failed|FATAL ERROR|Aborted/);
  expect({ status: outcome.status, signal: outcome.signal }).toEqual({ status: 0, signal: null });
}

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

describe('issue 16: the catalog on Node 24 survives statement collection', () => {
  const { pinned } = pinnedVersions();
  const node24 = provisionNode(pinned);

  it(`opens, prepares, closes and collects on Node ${pinned} and exits 0`, () => {
    const outcome = runOn(node24, ['--expose-gc', '--import', 'tsx', CHURN, path.join(tmp.dir, 'gflow.db'), '40']);
    expectCleanExit(outcome);
    const report = JSON.parse(outcome.stdout.trim()) as { node: string; statements: number };
    expect(report.node).toBe(pinned);
    expect(report.statements).toBe(40 * 25 * 3);
  });

  it('the exit check sees a native abort (a child that aborts is not a clean exit)', () => {
    const outcome = runOn(node24, ['-e', 'process.abort()']);
    expect(() => expectCleanExit(outcome)).toThrow();
    expect(outcome.signal).toBe('SIGABRT');
  });
});
