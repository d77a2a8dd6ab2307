// The harness of the command-output suites (../commandCoverage.test.ts, ../staticCommands.test.ts,
// ../catalogCommands.test.ts, ../badInput.test.ts, ../sandboxCommands.browser.test.ts). Every
// runnable command of the real tree (walkCli's leaves plus bare groups like `gflow auth`) has one
// case in exactly one table (staticCases, catalogCases, sandboxCases); the coverage test fails on a
// leaf without a case or a case without a leaf. A case runs the real binary with --json and
// validates stdout: with the core operation's output schema when the leaf runs an operation, else
// with the explicit schema of its documented payload (../outputSchemas.ts); every validation also
// checks that a corrupted copy is rejected. Bad input prints one RFC 9457 problem whose title,
// status and exit code are its type's.
import path from 'node:path';
import { buildCli, groupSpecOf, leafSpecOf, walkCli } from '@gflow/cli';
import { type Operation, createGflow } from '@gflow/core';
import { loadOperations } from '@gflow/core/surfaces';
import { ERROR_TYPE_BASE, type ErrorCode, httpStatusForCode, titleForCode } from '@gflow/errors';
import type { CliResult } from '@gflow/testkit';
import { cli } from '@gflow/testkit/cli';
import { expect, it } from 'vitest';
import { APP_COMMANDS } from '../../src/appCommands.js';
import * as S from '../outputSchemas.js';

// Every operation, loaded (the surfaces' registry loads them on demand).
const OPERATIONS = await loadOperations();

/** What validates a payload: a zod schema (core's or the tests'; they are two typings of one zod). */
export interface Schema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: readonly unknown[] } };
}

/** Every runnable command of the tree: its core operation (if any) and whether it offers --json. */
export type CommandTree = Map<string, { operation: string | undefined; json: boolean }>;

/**
 * Every runnable command of the tree exactly as runGflow builds it (the CLI plus the app's
 * APP_COMMANDS: `mcp run`, `serve`, `gallery`): walkCli's leaves, and the groups that run something bare (`gflow auth`).
 */
export async function commandTree(): Promise<CommandTree> {
  const root = buildCli({ version: '0.0.0-test', extraCommands: APP_COMMANDS });
  const out: CommandTree = new Map();
  for (const { path: p, def } of await walkCli(root)) {
    const spec = leafSpecOf(def);
    out.set(p.join(' '), { operation: spec?.operation, json: spec?.json !== false });
  }
  const visit = async (def: unknown, p: readonly string[]): Promise<void> => {
    const group = groupSpecOf(def);
    if (!group) return;
    if (group.bare) out.set(p.join(' '), { operation: group.bare.operation, json: group.bare.json !== false });
    for (const [name, entry] of Object.entries(group.children))
      await visit('load' in entry && typeof entry.load === 'function' ? await entry.load() : entry, [...p, name]);
  };
  await visit(root, []);
  return out;
}

export function operationNamed(name: string): Operation {
  const op = OPERATIONS.find((o) => o.name === name);
  if (!op) throw new Error(`no core operation ${name}`);
  return op;
}

/** What stdout is validated with. */
export type Output =
  /** The leaf's core operation output schema (optionally a view of it, for a command that prints a part). */
  | { readonly op: true; readonly view?: (output: Schema) => Schema }
  /** A CLI-only command's documented JSON document. */
  | { readonly schema: Schema }
  /** A CLI-only listing printed as JSON Lines: every row. */
  | { readonly rows: Schema }
  /** A server (no --json): it must start and answer, and refuse bad input. */
  | { readonly server: true };

export const OP: Output = { op: true };

export interface RunOptions {
  readonly sandbox?: boolean;
  /** The expected exit code (default 0). */
  readonly exit?: number;
  readonly env?: Record<string, string>;
}

/** Where a file's cases run: one home, and the settings every run gets (the sandbox's, when it has one). */
export interface Where {
  readonly home: string;
  readonly env: Readonly<Record<string, string>>;
}

export interface CaseTools {
  /** The home every run of this file uses. */
  readonly home: string;
  /** Runs `gflow <args>` (with --sandbox when asked) and returns what it printed, unchecked. */
  run(args: readonly string[], options?: RunOptions): Promise<CliResult>;
  /** Runs `gflow <args> --json` and returns stdout, validated with the case's schema. */
  json(args: readonly string[], options?: RunOptions): Promise<Record<string, unknown>>;
  /** Runs `gflow <args> --json` and returns its JSON Lines, each row validated (at least one row). */
  rows(args: readonly string[], options?: RunOptions): Promise<Array<Record<string, unknown>>>;
  /** Runs `gflow <args> --json` where the command must refuse: one problem document of type `code`, exit as the error table says. */
  problem(args: readonly string[], options: RunOptions & { readonly code: string }): Promise<Record<string, unknown>>;
}

/** One command's case; `Extra` is what its table's file adds to the tools (the sandbox's simulator). */
export interface Case<Extra = object> {
  readonly output: Output;
  /** Needs neither the sandbox nor another case: runs concurrently with the other such cases. */
  readonly concurrent?: boolean;
  run(t: CaseTools & Extra): Promise<void>;
}

export type CaseTable<Extra = object> = Record<string, Case<Extra>>;

/** `gflow <args>` in the file's home, with --sandbox when asked. */
export function runIn(where: Where, args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
  const full = [...args, ...(options.sandbox ? ['--sandbox'] : [])];
  return cli(full, { home: where.home, env: { ...where.env, ...options.env } });
}

export function describeRun(args: readonly string[], r: CliResult): string {
  return `gflow ${args.join(' ')} → exit ${r.exitCode}\nstdout: ${r.stdout.slice(0, 1500)}\nstderr: ${r.stderr.slice(-2000)}`;
}

/** A copy whose every top-level value is an object: no schema here may accept it. */
function corrupt(payload: unknown): unknown {
  if (Array.isArray(payload)) return [{ corrupted: true }];
  if (payload && typeof payload === 'object')
    return Object.fromEntries(Object.keys(payload).map((k) => [k, { corrupted: true }]));
  return { corrupted: true };
}

export function expectValid(schema: Schema, payload: unknown, what: string): void {
  const parsed = schema.safeParse(payload);
  expect(
    parsed.success,
    `${what}: ${parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 5))}\n${JSON.stringify(payload).slice(0, 1500)}`,
  ).toBe(true);
  // The same validator must be able to fail on this command's output.
  expect(schema.safeParse(corrupt(payload)).success, `${what}: a corrupted payload was accepted`).toBe(false);
}

/** Runs a failing command; checks its one failure envelope and that the exit code is its problem type's; returns the problem. */
export async function expectProblem(
  where: Where,
  args: readonly string[],
  options: RunOptions & { readonly code: string },
): Promise<Record<string, unknown>> {
  const full = [...args, '--json'];
  const r = await runIn(where, full, options);
  let envelope: Record<string, unknown>;
  try {
    envelope = JSON.parse(r.stdout) as Record<string, unknown>;
  } catch {
    throw new Error(`not one JSON document on stdout\n${describeRun(full, r)}`);
  }
  expectValid(S.failureDocument, envelope, `gflow ${args.join(' ')}`);
  const problem = envelope['error'] as Record<string, unknown>;
  expect(problem['type'], describeRun(full, r)).toBe(`${ERROR_TYPE_BASE}${options.code}`);
  expect(r.exitCode, describeRun(full, r)).toBe(S.exitCodeOfProblem(problem as { type: string }));
  if (options.exit !== undefined) expect(r.exitCode).toBe(options.exit);
  // title is fixed per type, status is the type's HTTP status.
  const code = options.code as ErrorCode;
  expect(problem['title']).toBe(titleForCode(code));
  expect(problem['status']).toBe(httpStatusForCode(code));
  return problem;
}

/** The tools of one case: its schema comes from the tree (the leaf's operation) or from the case. */
export function caseTools(where: () => Where, tree: () => CommandTree, output: Output, label: string): CaseTools {
  const schema = (): Schema => {
    if ('op' in output) {
      const name = tree().get(label)?.operation;
      if (!name) throw new Error(`${label} has no core operation`);
      const op = operationNamed(name);
      return output.view ? output.view(op.output) : op.output;
    }
    if ('schema' in output) return output.schema;
    if ('rows' in output) return output.rows;
    throw new Error(`${label} prints no JSON`);
  };
  return {
    get home() {
      return where().home;
    },
    run: (args, options) => runIn(where(), args, options),
    async json(args, options = {}) {
      const full = [...args, '--json'];
      const r = await runIn(where(), full, options);
      expect(r.exitCode, describeRun(full, r)).toBe(options.exit ?? 0);
      let payload: Record<string, unknown>;
      try {
        payload = JSON.parse(r.stdout) as Record<string, unknown>;
      } catch {
        throw new Error(`not one JSON document on stdout\n${describeRun(full, r)}`);
      }
      expectValid(schema(), payload, `gflow ${label}`);
      return payload;
    },
    async rows(args, options = {}) {
      const full = [...args, '--json'];
      const r = await runIn(where(), full, options);
      expect(r.exitCode, describeRun(full, r)).toBe(options.exit ?? 0);
      const lines = r.stdout.split('\n').filter((l) => l.trim() !== '');
      expect(lines.length, `no rows\n${describeRun(full, r)}`).toBeGreaterThan(0);
      const rows = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      for (const row of rows) expectValid(schema(), row, `gflow ${label} row`);
      return rows;
    },
    problem: (args, options) => expectProblem(where(), args, options),
  };
}

/** Registers one `it` per case of `table` (concurrently for the `concurrent` ones, in table order otherwise). */
export function itEachCase<Extra>(
  table: CaseTable<Extra>,
  tools: (label: string, output: Output) => CaseTools & Extra,
  timeoutMs: number,
): void {
  for (const [label, c] of Object.entries(table))
    (c.concurrent ? it.concurrent : it)(label, async () => c.run(tools(label, c.output)), timeoutMs);
}

/**
 * The same operation through the library on the same home: a leaf that prints the
 * operation's result must print exactly this (no envelope added, nothing reshaped).
 */
export async function libraryRun(
  home: string,
  name: string,
  input: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const gflow = createGflow({
    surface: 'library',
    env: { GFLOW_CLI_HOME: home, GFLOW_CLI_OUTPUT_DIR: path.join(home, 'out') },
  });
  try {
    return (await gflow.runByName(name, input)) as Record<string, unknown>;
  } finally {
    await gflow.close();
  }
}

/** A listing printed as JSON Lines: one element of the operation output's array `key` (`items`, `projects`). */
export function rowsOf(key: string): (output: Schema) => Schema {
  return (output) => (output as unknown as { shape: Record<string, { element: Schema }> }).shape[key]!.element;
}

/** A command that prints one member of its operation's output (`data media` prints `media`). */
export function fieldOf(key: string): (output: Schema) => Schema {
  return (output) => (output as unknown as { shape: Record<string, Schema> }).shape[key]!;
}

/** `tools show`: one element of listTools' `tools`. */
export function toolElement(output: Schema): Schema {
  const tools = (output as unknown as { shape: { tools: { element: Schema } } }).shape.tools;
  return tools.element;
}

/** A sample of bad input: one problem document on stdout, its exit code the table's for its type. */
export interface FailureCase {
  /** The test's name when args need an earlier case's ids. */
  readonly name?: string;
  readonly args: () => readonly string[];
  readonly sandbox?: boolean;
  readonly exit: number;
  readonly code: string;
}
