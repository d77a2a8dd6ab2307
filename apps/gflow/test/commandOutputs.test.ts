// Every runnable command of the real tree (walkCli's leaves plus bare groups like `gflow auth`)
// has a case here; a leaf without a case, or a case without a leaf, fails the coverage test.
// Each case runs the real binary with --json and validates stdout: with the core operation's
// output schema when the leaf runs an operation (exactly the library's result for the local
// ones), else with the explicit schema of its documented payload (outputSchemas.ts); every
// validation also checks that a corrupted copy is rejected. Browser-backed commands run with
// --sandbox against one Flow simulator in this process (one sandbox home, signed in once) and
// chain: project → image → video → upscale/download. Local commands run concurrently. Bad
// input prints one RFC 9457 problem whose title, status and exit code are its type's.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { buildCli, groupSpecOf, leafSpecOf, walkCli } from '@gflow/cli';
import { OPERATIONS, type Operation, createGflow } from '@gflow/core';
import { ERROR_TYPE_BASE, type ErrorCode, httpStatusForCode, retryableForCode, titleForCode } from '@gflow/errors';
import { type FlowSim, startFlowSim } from '@gflow/flow-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpRunCommand } from '../src/commands/mcpRunCommand.js';
import { serveCommand } from '../src/commands/serveCommand.js';
import { seedError, seedMedia } from './catalogSeed.js';
import { BIN, type CliResult, cli, cliEnv, makeHome } from './cliHarness.js';
import * as S from './outputSchemas.js';
import { z } from 'zod';

/** What validates a payload: a zod schema (core's or the tests'; they are two typings of one zod). */
interface Schema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: readonly unknown[] } };
}
const SANDBOX_EMAIL = 'sandbox.user@gflow.invalid';

/**
 * Every runnable command of the tree exactly as runGflow builds it (the CLI plus the app's
 * `mcp run` and `serve`): walkCli's leaves, and the groups that run something bare (`gflow auth`).
 */
async function leaves(): Promise<Map<string, { operation: string | undefined; json: boolean }>> {
  const root = buildCli({ version: '0.0.0-test', extraCommands: { 'mcp run': mcpRunCommand, serve: serveCommand } });
  const out = new Map<string, { operation: string | undefined; json: boolean }>();
  for (const { path: p, def } of await walkCli(root)) {
    const spec = leafSpecOf(def);
    out.set(p.join(' '), { operation: spec?.operation, json: spec?.json !== false });
  }
  const visit = async (def: unknown, p: readonly string[]): Promise<void> => {
    const group = groupSpecOf(def);
    if (!group) return;
    if (group.bare) out.set(p.join(' '), { operation: group.bare.operation, json: group.bare.json !== false });
    for (const [name, entry] of Object.entries(group.children)) await visit('load' in entry && typeof entry.load === 'function' ? await entry.load() : entry, [...p, name]);
  };
  await visit(root, []);
  return out;
}

function operationNamed(name: string): Operation {
  const op = OPERATIONS.find((o) => o.name === name);
  if (!op) throw new Error(`no core operation ${name}`);
  return op;
}

/** What stdout is validated with. */
type Output =
  /** The leaf's core operation output schema (optionally a view of it, for a command that prints a part). */
  | { readonly op: true; readonly view?: (output: Schema) => Schema }
  /** A CLI-only command's documented JSON document. */
  | { readonly schema: Schema }
  /** A CLI-only listing printed as JSON Lines: every row. */
  | { readonly rows: Schema }
  /** A server (no --json): it must start and answer, and refuse bad input. */
  | { readonly server: true };

interface Case {
  readonly output: Output;
  /** Needs neither the sandbox nor another case: runs concurrently with the other such cases. */
  readonly concurrent?: boolean;
  run(t: CaseTools): Promise<void>;
}

interface RunOptions {
  readonly sandbox?: boolean;
  /** The expected exit code (default 0). */
  readonly exit?: number;
  readonly env?: Record<string, string>;
}

interface CaseTools {
  /** Runs `gflow <args> --json` and returns stdout, validated with the case's schema. */
  json(args: readonly string[], options?: RunOptions): Promise<Record<string, unknown>>;
  /** Runs `gflow <args> --json` and returns its JSON Lines, each row validated (at least one row). */
  rows(args: readonly string[], options?: RunOptions): Promise<Array<Record<string, unknown>>>;
  /** Runs `gflow <args> --json` where the command must refuse: one problem document of type `code`, exit as the error table says. */
  problem(args: readonly string[], options: RunOptions & { readonly code: string }): Promise<Record<string, unknown>>;
}

/** Runs a failing command; checks its one problem document and that the exit code is its type's. */
async function expectProblem(args: readonly string[], options: RunOptions & { readonly code: string }): Promise<Record<string, unknown>> {
  const full = [...args, '--json'];
  const r = await run(full, options);
  let problem: Record<string, unknown>;
  try {
    problem = JSON.parse(r.stdout) as Record<string, unknown>;
  } catch {
    throw new Error(`not one JSON document on stdout\n${describeRun(full, r)}`);
  }
  expectValid(S.problemDocument, problem, `gflow ${args.join(' ')}`);
  expect(problem['type'], describeRun(full, r)).toBe(`${ERROR_TYPE_BASE}${options.code}`);
  expect(r.exitCode, describeRun(full, r)).toBe(S.exitCodeOfProblem(problem as { type: string }));
  if (options.exit !== undefined) expect(r.exitCode).toBe(options.exit);
  // title is fixed per type, status is the type's HTTP status.
  const code = options.code as ErrorCode;
  expect(problem['title']).toBe(titleForCode(code));
  expect(problem['status']).toBe(httpStatusForCode(code));
  return problem;
}

/** A copy whose every top-level value is an object: no schema here may accept it. */
function corrupt(payload: unknown): unknown {
  if (Array.isArray(payload)) return [{ corrupted: true }];
  if (payload && typeof payload === 'object') return Object.fromEntries(Object.keys(payload).map((k) => [k, { corrupted: true }]));
  return { corrupted: true };
}

function describeRun(args: readonly string[], r: CliResult): string {
  return `gflow ${args.join(' ')} → exit ${r.exitCode}\nstdout: ${r.stdout.slice(0, 1500)}\nstderr: ${r.stderr.slice(-2000)}`;
}

function expectValid(schema: Schema, payload: unknown, what: string): void {
  const parsed = schema.safeParse(payload);
  expect(parsed.success, `${what}: ${parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 5))}\n${JSON.stringify(payload).slice(0, 1500)}`).toBe(true);
  // The same validator must be able to fail on this command's output.
  expect(schema.safeParse(corrupt(payload)).success, `${what}: a corrupted payload was accepted`).toBe(false);
}

// ---------------------------------------------------------------- fixtures

let sim: FlowSim;
let home = '';
let simEnv: Record<string, string> = {};
let registry: http.Server;
let registryUrl = '';
let tree: Map<string, { operation: string | undefined; json: boolean }>;

/** What earlier cases produced, for the chained ones. */
const state: {
  projectId?: string;
  imageId?: string;
  imageFile?: string;
  videoId?: string;
} = {};

function need<K extends keyof typeof state>(key: K): NonNullable<(typeof state)[K]> {
  const value = state[key];
  if (value === undefined) throw new Error(`an earlier case did not produce ${key}`);
  return value as NonNullable<(typeof state)[K]>;
}

async function run(args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
  const full = [...args, ...(options.sandbox ? ['--sandbox'] : [])];
  return cli(full, { home, env: { ...simEnv, ...options.env } });
}

function toolsFor(output: Output, label: string): CaseTools {
  const schema = (): Schema => {
    if ('op' in output) {
      const name = tree.get(label)?.operation;
      if (!name) throw new Error(`${label} has no core operation`);
      const op = operationNamed(name);
      return output.view ? output.view(op.output) : op.output;
    }
    if ('schema' in output) return output.schema;
    if ('rows' in output) return output.rows;
    throw new Error(`${label} prints no JSON`);
  };
  return {
    async json(args, options = {}) {
      const full = [...args, '--json'];
      const r = await run(full, options);
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
      const r = await run(full, options);
      expect(r.exitCode, describeRun(full, r)).toBe(options.exit ?? 0);
      const lines = r.stdout.split('\n').filter((l) => l.trim() !== '');
      expect(lines.length, `no rows\n${describeRun(full, r)}`).toBeGreaterThan(0);
      const rows = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      for (const row of rows) expectValid(schema(), row, `gflow ${label} row`);
      return rows;
    },
    problem: expectProblem,
  };
}

/**
 * The same operation through the library on the same home: a leaf that prints the
 * operation's result must print exactly this (no envelope added, nothing reshaped).
 */
async function libraryRun(name: string, input: Record<string, unknown>, gflowHome = home): Promise<Record<string, unknown>> {
  const gflow = createGflow({ surface: 'library', env: { GFLOW_CLI_HOME: gflowHome, GFLOW_CLI_OUTPUT_DIR: path.join(gflowHome, 'out') } });
  try {
    return (await gflow.run(name, input)) as Record<string, unknown>;
  } finally {
    await gflow.close();
  }
}

// ---------------------------------------------------------------- the table

const OP: Output = { op: true };
const completed = (p: Record<string, unknown>): void => {
  expect(p['status'], JSON.stringify(p['error'] ?? p)).toBe('completed');
  expect((p['files'] as unknown[]).length).toBeGreaterThan(0);
};

/** `image batch`: the CLI's wrapper, each result the generateImage envelope plus the entry's `prompt`. */
function batchView(output: Schema): Schema {
  const result = z.looseObject({ prompt: z.string().min(1) }).superRefine(({ prompt: _prompt, ...rest }, ctx) => {
    const parsed = output.safeParse(rest);
    if (!parsed.success) ctx.addIssue({ code: 'custom', message: `not a generateImage result: ${JSON.stringify(parsed.error.issues).slice(0, 500)}` });
  });
  return z.strictObject({ status: z.enum(['completed', 'partial']), results: z.array(result).min(1) });
}

/** `tools show`: one element of listTools' `tools`. */
function toolElement(output: Schema): Schema {
  const tools = (output as unknown as { shape: { tools: { element: Schema } } }).shape.tools;
  return tools.element;
}

const instr = (sub: string, ...rest: string[]): string[] => ['instructions', sub, ...rest, '--project', need('projectId')];

/**
 * One case per command, keyed by its path; the sandbox chain runs in this order
 * (later cases use what earlier ones made), `concurrent` cases on their own.
 */
const CASES: Record<string, Case> = {
  'auth status': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['auth', 'status'], { sandbox: true });
      expect(p).toMatchObject({ status: 'authenticated', profile: 'sandbox', user_email: SANDBOX_EMAIL });
    },
  },
  'auth login': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['auth', 'login', '--profile', 'second', '--account', SANDBOX_EMAIL], { sandbox: true });
      expect(p).toMatchObject({ profile: 'second', user_email: SANDBOX_EMAIL });
    },
  },
  'auth renew': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['auth', 'renew', '--profile', 'second'], { sandbox: true });
      expect(p['profile']).toBe('second');
    },
  },
  'auth list': {
    output: { schema: S.authListPayload },
    run: async (t) => {
      const rows = (await t.json(['auth', 'list'], { sandbox: true })) as unknown as Array<{ name: string }>;
      expect(rows.map((r) => r.name).sort()).toEqual(['sandbox', 'second']);
    },
  },
  // Bare `gflow auth` with profiles present: the profile list, as `auth list` prints it.
  auth: {
    output: { schema: S.authListPayload },
    run: async (t) => {
      const rows = (await t.json(['auth'], { sandbox: true })) as unknown as Array<{ name: string }>;
      expect(rows.map((r) => r.name).sort()).toEqual(['sandbox', 'second']);
    },
  },
  'auth use': {
    output: { schema: S.authUsePayload },
    run: async (t) => {
      expect(await t.json(['auth', 'use', 'second'], { sandbox: true })).toMatchObject({ default_profile: 'second' });
    },
  },
  'credits user': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['credits', 'user'], { sandbox: true });
      expect(p).toMatchObject({ status: 'ok', profile: 'sandbox', credits: expect.any(Number) });
    },
  },
  'credits list': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['credits', 'list'], { sandbox: true });
      expect((p['profiles'] as unknown[]).length).toBe(2);
    },
  },
  'auth logout': {
    output: { schema: S.authLogoutPayload },
    run: async (t) => {
      expect(await t.json(['auth', 'logout', '--profile', 'second', '-y'], { sandbox: true })).toMatchObject({ profile: 'second' });
    },
  },
  'project create': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['project', 'create', '--title', 'Outputs test'], { sandbox: true });
      state.projectId = String(p['project_id']);
    },
  },
  'project rename': {
    output: OP,
    run: async (t) => {
      expect(await t.json(['project', 'rename', need('projectId'), 'Outputs test, renamed'], { sandbox: true })).toMatchObject({ title: 'Outputs test, renamed' });
    },
  },
  'image t2i': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['image', 't2i', 'a red fox in fresh snow', '--project', need('projectId')], { sandbox: true });
      completed(p);
      state.imageId = String(p['flow_media_id']);
      state.imageFile = String((p['files'] as string[])[0]);
    },
  },
  'image i2i': {
    output: OP,
    run: async (t) => completed(await t.json(['image', 'i2i', 'the same fox, in watercolour', '--ref', need('imageId')], { sandbox: true })),
  },
  'image upload': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['image', 'upload', need('imageFile'), '--project', need('projectId')], { sandbox: true });
      expect(p['project_id']).toBe(need('projectId'));
    },
  },
  'image upscale': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['image', 'upscale', need('imageId'), '--scale', '2k'], { sandbox: true });
      expect(fs.existsSync(String(p['path']))).toBe(true);
    },
  },
  'image batch': {
    output: { op: true, view: batchView },
    run: async (t) => {
      const manifest = path.join(home, 'batch.json');
      fs.writeFileSync(manifest, JSON.stringify([{ text: 'a lighthouse at dawn', aspect_ratio: '16:9' }]));
      const p = await t.json(['image', 'batch', manifest], { sandbox: true });
      expect(p['status']).toBe('completed');
      // An entry the operation refuses is reported in place (its problem as `error`); exit = the worst code.
      fs.writeFileSync(manifest, JSON.stringify([{ text: 'four is the most', count: 9 }]));
      const partial = await t.json(['image', 'batch', manifest], { sandbox: true, exit: 2 });
      expect(partial).toMatchObject({ status: 'partial', results: [{ prompt: 'four is the most', status: 'error' }] });
      const error = (partial['results'] as Array<{ error: { type: string } }>)[0]?.error;
      expectValid(S.problemDocument, error, 'image batch entry error');
      expect(S.exitCodeOfProblem(error as { type: string })).toBe(2);
    },
  },
  'video t2v': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['video', 't2v', 'waves at dusk, slow pan'], { sandbox: true });
      completed(p);
      state.videoId = String(p['flow_media_id']);
    },
  },
  'video i2v': {
    output: OP,
    run: async (t) => completed(await t.json(['video', 'i2v', 'the fox starts running', '--initial-frame', need('imageId')], { sandbox: true })),
  },
  'video r2v': {
    output: OP,
    run: async (t) => completed(await t.json(['video', 'r2v', 'the fox dances', '--ref', need('imageId'), '--duration', '8'], { sandbox: true })),
  },
  'video upscale': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['video', 'upscale', need('videoId'), '--scale', '1080p'], { sandbox: true });
      expect(fs.existsSync(String(p['path']))).toBe(true);
    },
  },
  'data download': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['data', 'download', need('videoId'), '--out', path.join(home, 'redownload')], { sandbox: true });
      expect(p['path']).toBe(path.join(home, 'redownload', `${need('videoId')}.mp4`));
      // An image too (its grid tile's session-gated URL).
      const image = await t.json(['data', 'download', need('imageId'), '--out', path.join(home, 'redownload')], { sandbox: true });
      expect(String(image['path'])).toMatch(new RegExp(`${need('imageId')}\\.(jpg|png|webp)$`));
      expect(fs.statSync(String(image['path'])).size).toBe(image['bytes']);
    },
  },
  'character list': {
    output: OP,
    run: async (t) => {
      sim.scenario.addCharacter(need('projectId'), { displayName: 'Mira', voice: 'kore' });
      const p = await t.json(['character', 'list', '--project', need('projectId')], { sandbox: true });
      expect(p['count']).toBe(1);
    },
  },
  'character show': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['character', 'show', '--project', need('projectId'), '--name', 'Mira'], { sandbox: true });
      expect(p['character']).toMatchObject({ display_name: 'Mira' });
    },
  },
  'character voices': {
    concurrent: true,
    output: OP,
    run: async (t) => {
      const p = await t.json(['character', 'voices']);
      expect(p['count']).toBe((p['voices'] as unknown[]).length);
      expect(p).toEqual(await libraryRun('characterVoices', {}));
    },
  },
  // The brief of the test project starts empty (the simulator seeds no cards). Writing the brief is not
  // possible yet: the driver reads the live brief, computes the new card set and refuses with
  // WireFormatError (exit 7), changing nothing; a card that is not there is refused first (exit 32).
  'instructions add': {
    output: OP,
    run: async (t) => {
      const p = await t.problem(instr('add', 'House style', '--text', 'Muted colours, 35mm'), { sandbox: true, code: 'wire-format', exit: 7 });
      expect(p).toMatchObject({ live_cards: 0, intended_cards: 1, retryable: false });
    },
  },
  'instructions enable': {
    output: OP,
    run: async (t) => void (await t.problem(instr('enable', 'House style'), { sandbox: true, code: 'reference-not-found', exit: 32 })),
  },
  'instructions disable': {
    output: OP,
    run: async (t) => void (await t.problem([...instr('disable'), '--id', 'card-1'], { sandbox: true, code: 'reference-not-found', exit: 32 })),
  },
  'instructions rm': {
    output: OP,
    run: async (t) => void (await t.problem(instr('rm', 'House style'), { sandbox: true, code: 'reference-not-found', exit: 32 })),
  },
  'instructions toggle-mode': {
    output: OP,
    run: async (t) => {
      expect(await t.problem(instr('toggle-mode', '--off'), { sandbox: true, code: 'wire-format', exit: 7 })).toMatchObject({ live_cards: 0, intended_cards: 0 });
    },
  },
  'instructions apply': {
    output: OP,
    run: async (t) => {
      const file = path.join(home, 'cards.json');
      fs.writeFileSync(file, JSON.stringify([{ title: 'Palette', text: 'Teal and orange' }, { title: 'Lens', text: '85mm', enabled: false }]));
      expect(await t.problem(instr('apply', file), { sandbox: true, code: 'wire-format', exit: 7 })).toMatchObject({ live_cards: 0, intended_cards: 2 });
    },
  },
  // Last, with two cards in the brief: the list reads them.
  'instructions list': {
    output: OP,
    run: async (t) => {
      expect(await t.json(instr('list'), { sandbox: true })).toMatchObject({ project_id: need('projectId'), enabled: true, cards: [] });
      sim.scenario.addInstruction(need('projectId'), 'Keep it noir.');
      sim.scenario.addInstruction(need('projectId'), 'Golden hour light.');
      const p = await t.json(instr('list'), { sandbox: true });
      expect((p['cards'] as Array<{ text: string; enabled: boolean }>).map((c) => [c.text, c.enabled])).toEqual([
        ['Keep it noir.', true],
        ['Golden hour light.', true],
      ]);
    },
  },
  'project list': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['project', 'list'], { sandbox: true });
      expect((p['projects'] as Array<{ project_id: string }>).map((x) => x.project_id)).toContain(need('projectId'));
      expect(p).toEqual(await libraryRun('listProjects', {}, path.join(home, 'sandbox')));
    },
  },
  'project show': {
    output: { schema: S.projectShowPayload },
    run: async (t) => {
      const p = await t.json(['project', 'show', need('projectId')], { sandbox: true });
      expect(p['project']).toMatchObject({ project_id: need('projectId'), title: 'Outputs test, renamed', profile: 'sandbox', url: expect.stringContaining(need('projectId')) });
    },
  },
  'data list projects': { output: { rows: S.dataProjectRow }, run: async (t) => void (await t.rows(['data', 'list', 'projects'], { sandbox: true })) },
  'data list images': {
    output: { rows: S.dataMediaRow },
    run: async (t) => {
      const rows = await t.rows(['data', 'list', 'images', '--limit', '100'], { sandbox: true });
      expect(rows.map((r) => r['media_id'])).toContain(need('imageId'));
    },
  },
  'data list videos': {
    output: { rows: S.dataMediaRow },
    run: async (t) => {
      const rows = await t.rows(['data', 'list', 'videos'], { sandbox: true });
      expect(rows.map((r) => r['media_id'])).toContain(need('videoId'));
    },
  },
  'data list profiles': { output: { rows: S.dataProfileRow }, run: async (t) => void (await t.rows(['data', 'list', 'profiles'], { sandbox: true })) },
  'data list errors': {
    concurrent: true,
    output: { rows: S.dataErrorRow },
    run: async (t) => {
      const rows = await t.rows(['data', 'list', 'errors']);
      expect(rows.map((r) => r['error_type'])).toContain('content-policy');
    },
  },
  'data media': {
    output: { schema: S.dataMediaPayload },
    run: async (t) => {
      const p = await t.json(['data', 'media', need('imageId')], { sandbox: true });
      expect(p).toMatchObject({ media_id: need('imageId'), kind: 'image', profile: 'sandbox' });
    },
  },
  'data prune': {
    concurrent: true,
    output: { schema: S.dataPrunePayload },
    run: async (t) => {
      const p = await t.json(['data', 'prune', '--dry-run']);
      expect(p).toMatchObject({ dry_run: true, removed: [expect.objectContaining({ path: expect.any(String) })] });
    },
  },
  'data usage': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['data', 'usage', '--weeks', '2'], { sandbox: true });
      expect(p['weeks']).toBe(2);
    },
  },
  'data errors export': {
    concurrent: true,
    output: { rows: S.dataErrorRow },
    run: async (t) => {
      const rows = await t.rows(['data', 'errors', 'export']);
      expect(rows.length).toBe(2);
      // With -o FILE it prints a summary instead (the same rows go to the file).
      const file = path.join(home, 'errors.jsonl');
      const r = await run(['data', 'errors', 'export', '--older-than', '30d', '-o', file, '--json']);
      expect(r.exitCode, describeRun(['data errors export -o'], r)).toBe(0);
      expectValid(S.errorsExportFilePayload, JSON.parse(r.stdout), 'data errors export -o');
      const written = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
      expect(written).toHaveLength(1);
      expectValid(S.dataErrorRow, JSON.parse(written[0] as string), 'data errors export file row');
    },
  },
  'data errors prune': {
    concurrent: true,
    output: { schema: S.errorsPrunePayload },
    run: async (t) => {
      expect(await t.json(['data', 'errors', 'prune', '--older-than', '30d', '--dry-run'])).toMatchObject({ count: 1, dry_run: true });
    },
  },
  models: {
    concurrent: true,
    output: OP,
    run: async (t) => {
      const p = await t.json(['models']);
      expect((p['image'] as { models: unknown[] }).models.length).toBeGreaterThan(0);
      expect(p).toEqual(await libraryRun('listModels', {}));
    },
  },
  'tools list': {
    concurrent: true,
    output: OP,
    run: async (t) => {
      const p = await t.json(['tools', 'list']);
      expect((p['tools'] as Array<{ name: string }>).map((x) => x.name)).toContain('creative-director');
      expect(p).toEqual(await libraryRun('listTools', {}));
    },
  },
  'tools show': {
    concurrent: true,
    output: { op: true, view: toolElement },
    run: async (t) => {
      const p = await t.json(['tools', 'show', 'creative-director']);
      expect(p).toMatchObject({ name: 'creative-director', template: expect.any(String) });
      expect([p]).toEqual((await libraryRun('listTools', { name: 'creative-director' }))['tools']);
    },
  },
  'tools run': {
    concurrent: true,
    output: OP,
    run: async (t) => {
      const p = await t.json(['tools', 'run', 'creative-director', 'a fox in the snow']);
      expect(p).toMatchObject({ original: 'a fox in the snow', was_expanded: true });
      expect(p).toEqual(await libraryRun('runPromptTools', { prompt: 'a fox in the snow', tools: [{ name: 'creative-director' }] }));
    },
  },
  'mcp setup': {
    concurrent: true,
    output: { schema: S.mcpSetupPayload },
    run: async (t) => {
      const file = path.join(home, 'cursor-mcp.json');
      expect(await t.json(['mcp', 'setup', '--target', 'cursor', '--config-path', file])).toMatchObject({ status: 'configured', target: 'cursor', config_path: file });
      expect(await t.json(['mcp', 'setup', '--target', 'cursor', '--config-path', file])).toMatchObject({ status: 'already_configured' });
    },
  },
  'mcp run': {
    concurrent: true,
    output: { server: true },
    run: async () => {
      // It answers over stdio: tools/list, and a tool call whose result is the operation's output.
      const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', 'run'], env: cliEnv(home) as Record<string, string>, stderr: 'pipe' });
      const client = new Client({ name: 'command-outputs-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((x) => x.name)).toContain('gflow_list_models');
        const result = await client.callTool({ name: 'gflow_list_models', arguments: {} });
        expectValid(operationNamed('listModels').output, result.structuredContent, 'mcp run → gflow_list_models');
      } finally {
        await client.close();
      }
      // Bad input is refused before serving: a usage error, exit 2, nothing on stdout.
      const bad = await run(['mcp', 'run', '--no-such-flag']);
      expect(bad.exitCode, describeRun(['mcp run --no-such-flag'], bad)).toBe(2);
      expect(bad.stdout).toBe('');
      expect(bad.stderr).toMatch(/^Error: \[\w+\]/m);
    },
  },
  serve: {
    concurrent: true,
    output: { server: true },
    run: async () => {
      const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { env: cliEnv(home), cwd: home, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      try {
        const url = await new Promise<string>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`serve did not say where it listens\n${stderr}`)), 20_000);
          child.stderr.on('data', () => {
            const m = /listening on (http:\/\/\S+?)\/mcp/.exec(stderr);
            if (m?.[1]) {
              clearTimeout(timer);
              resolve(`${m[1]}/mcp`);
            }
          });
        });
        const client = new Client({ name: 'command-outputs-test', version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(url)));
        try {
          const result = await client.callTool({ name: 'gflow_character_voices', arguments: {} });
          expectValid(operationNamed('characterVoices').output, result.structuredContent, 'serve → gflow_character_voices');
        } finally {
          await client.close();
        }
      } finally {
        child.kill('SIGINT');
      }
      expect(await exited).toBe(0);
      const bad = await run(['serve', '--port', '70000']);
      expect(bad.exitCode, describeRun(['serve --port 70000'], bad)).toBe(2);
      expect(bad.stderr).toMatch(/--port/);
    },
  },
  doctor: {
    concurrent: true,
    output: { schema: S.doctorPayload },
    run: async (t) => {
      const r = await run(['doctor', '--json']);
      const p = JSON.parse(r.stdout) as { overall_status: string };
      expect(r.exitCode, describeRun(['doctor'], r)).toBe(p.overall_status === 'ok' ? 0 : 33);
      await t.json(['doctor'], { exit: r.exitCode });
    },
  },
  update: {
    concurrent: true,
    output: { schema: S.updatePayload },
    run: async (t) => {
      const p = await t.json(['update', '--check'], { env: { GFLOW_CLI_UPDATE_REGISTRY: registryUrl } });
      expect(p).toMatchObject({ status: 'update_available', latest: '99.1.0', update_available: true });
    },
  },
  'telemetry status': { output: { schema: S.telemetryPayload }, run: async (t) => void (await t.json(['telemetry', 'status'])) },
  'telemetry off': {
    output: { schema: S.telemetryPayload },
    run: async (t) => void expect(await t.json(['telemetry', 'off'])).toMatchObject({ recording: 'off' }),
  },
  'telemetry on': {
    output: { schema: S.telemetryPayload },
    run: async (t) => void expect(await t.json(['telemetry', 'on'])).toMatchObject({ recording: 'on' }),
  },
};

// ---------------------------------------------------------------- failures

interface FailureCase {
  /** The test's name when args need an earlier case's ids. */
  readonly name?: string;
  readonly args: () => readonly string[];
  readonly sandbox?: boolean;
  readonly exit: number;
  readonly code: string;
}

/** A sample of bad input: one problem document on stdout, its exit code the table's for its type. */
const FAILURES: readonly FailureCase[] = [
  { args: () => ['data', 'list', 'images', '--limit', '0'], exit: 2, code: 'bad-parameter' },
  { args: () => ['data', 'media', 'no-such-media'], exit: 2, code: 'bad-parameter' },
  { args: () => ['image', 't2i', 'a fox', '--count', '9'], exit: 2, code: 'bad-parameter' },
  { args: () => ['video', 't2v'], exit: 2, code: 'usage' },
  { args: () => ['tools', 'show', 'no-such-tool'], exit: 2, code: 'bad-parameter' },
  { args: () => ['auth', 'use', 'ghost'], exit: 2, code: 'no-profile' },
  { args: () => ['project', 'show', 'unknown-project'], exit: 32, code: 'reference-not-found' },
  { args: () => ['instructions', 'toggle-mode', '--project', 'p1', '--on', '--off'], exit: 2, code: 'usage' },
  { args: () => ['data', 'errors', 'prune'], exit: 2, code: 'usage' },
  { args: () => ['no-such-command'], exit: 2, code: 'usage' },
  // Refused by the sandbox's Flow or by the model catalog, after the session is up.
  { args: () => ['credits', 'user', '--profile', 'ghost'], sandbox: true, exit: 2, code: 'no-profile' },
  { args: () => ['video', 't2v', 'waves', '--model', 'veo-fast', '--duration', '10'], sandbox: true, exit: 2, code: 'bad-parameter' },
  { name: 'image upscale MEDIA_ID --scale 4k', args: () => ['image', 'upscale', need('imageId'), '--scale', '4k'], sandbox: true, exit: 22, code: 'upscale-unavailable' },
  { name: 'character show --project PROJECT --name Nobody', args: () => ['character', 'show', '--project', need('projectId'), '--name', 'Nobody'], sandbox: true, exit: 32, code: 'reference-not-found' },
];

// ---------------------------------------------------------------- tests

beforeAll(async () => {
  tree = await leaves();
  sim = await startFlowSim({ seed: 'command-outputs' });
  home = makeHome();
  simEnv = {
    GFLOW_CLI_SANDBOX_SIM: sim.control.url,
    GFLOW_CLI_SANDBOX_SIM_TOKEN: sim.control.token,
    GFLOW_CLI_LOG_LEVEL: 'WARNING',
    GFLOW_CLI_TIMEOUT_SECONDS: '120',
  };
  // The real (non-sandbox) catalog: two failed operations (one 40 days old) and a local copy whose file is gone.
  await seedMedia(home, 'alice', { fileExists: false });
  await seedError(home, 'alice', 40);
  await seedError(home, 'alice', 1, 'rate-limit');
  registry = http.createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ name: '@gflow/app', version: '99.1.0' }));
  });
  await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
  registryUrl = `http://127.0.0.1:${(registry.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => registry?.close(() => resolve()));
  await sim?.close();
  if (home) fs.rmSync(home, { recursive: true, force: true, maxRetries: 3 });
});

describe('every command has a case', () => {
  it('the table names exactly the leaves of the command tree', () => {
    expect(tree.has('auth'), 'bare `gflow auth` is a command of its own').toBe(true);
    const missing = [...tree.keys()].filter((p) => !(p in CASES));
    const stale = Object.keys(CASES).filter((p) => !tree.has(p));
    expect(missing, 'leaves without a case in commandOutputs.test.ts').toEqual([]);
    expect(stale, 'cases for commands that no longer exist').toEqual([]);
  });

  it('a case checks the operation schema exactly when the leaf runs an operation, and JSON exactly when it has --json', () => {
    for (const [p, c] of Object.entries(CASES)) {
      const leaf = tree.get(p);
      if (!leaf) continue;
      expect('op' in c.output, `${p}: operation ${leaf.operation ?? '(none)'}`).toBe(leaf.operation !== undefined);
      if (leaf.operation) expect(OPERATIONS.some((o) => o.name === leaf.operation), `${p}: ${leaf.operation} is in core's OPERATIONS`).toBe(true);
      expect('server' in c.output, `${p}: --json ${leaf.json ? 'offered' : 'not offered'}`).toBe(!leaf.json);
    }
  });

  it('the validators reject payloads that are not the contract', () => {
    expect(operationNamed('generateImage').output.safeParse({ status: 'done' }).success).toBe(false);
    expect(operationNamed('listTools').output.safeParse({ tools: [{ title: 'no name' }] }).success).toBe(false);
    expect(batchView(operationNamed('generateImage').output).safeParse({ status: 'completed', results: [{ prompt: 'x', status: 'nope' }] }).success).toBe(false);
    expect(batchView(operationNamed('generateImage').output).safeParse({ status: 'completed', results: [{ status: 'completed' }] }).success).toBe(false);
    expect(toolElement(operationNamed('listTools').output).safeParse({ name: 7 }).success).toBe(false);
    expect(S.telemetryPayload.safeParse({ status: 'ok', recording: 'on', upload: false, config_path: '/x', extra: 1 }).success).toBe(false);
    expect(S.problemDocument.safeParse({ type: 'https://example.com/x', title: 't', status: 400, detail: 'd', instance: 'gflow:error:0123abcd', retryable: false, message: 'm' }).success).toBe(false);
    expect(S.problemDocument.safeParse({ type: 'https://gflow.dev/errors/bad-parameter', title: 't', status: 400, detail: 'd', instance: 'gflow:error:0123abcd', message: 'm' }).success).toBe(false);
  });
});

describe.concurrent('gflow <command> --json matches its schema (local commands, concurrently)', () => {
  for (const [label, c] of Object.entries(CASES)) if (c.concurrent) it(label, async () => c.run(toolsFor(c.output, label)), 60_000);
});

describe('gflow <command> --json matches its schema (the sandbox chain, in order)', () => {
  for (const [label, c] of Object.entries(CASES)) if (!c.concurrent) it(label, async () => c.run(toolsFor(c.output, label)), 150_000);
});

describe('a failed generation with --json keeps the task envelope', () => {
  it('image t2i refused by content policy: the generateImage output, its error a problem document, exit 5', async () => {
    sim.scenario.setFailure(SANDBOX_EMAIL, 'content_policy', { times: 1 });
    const r = await run(['image', 't2i', 'something the policy refuses', '--json'], { sandbox: true });
    const payload = JSON.parse(r.stdout) as { status: string; error: { type: string } };
    expectValid(operationNamed('generateImage').output, payload, 'failed image t2i');
    expect(payload.status, describeRun(['image t2i (refused)'], r)).toBe('failed');
    expectValid(S.problemDocument, payload.error, 'failed image t2i error');
    expect(payload.error.type).toBe(`${ERROR_TYPE_BASE}content-policy`);
    expect(payload.error, 'a content-policy problem carries no status').not.toHaveProperty('status');
    expect(r.exitCode).toBe(5);
    expect(S.exitCodeOfProblem(payload.error)).toBe(r.exitCode);
  }, 120_000);
});

describe('gflow <command> --json on bad input prints one problem document', () => {
  for (const f of FAILURES) {
    // Local refusals run concurrently; the sandbox ones take the profile's lease, one at a time.
    (f.sandbox ? it : it.concurrent)(`${f.name ?? f.args().join(' ')} → ${f.code}, exit ${f.exit}`, async () => {
      const problem = await expectProblem(f.args(), { code: f.code, exit: f.exit, ...(f.sandbox ? { sandbox: true } : {}) });
      expect(problem['retryable']).toBe(retryableForCode(f.code as ErrorCode));
    }, 60_000);
  }
});

describe('auth status when the session is gone (last: it signs the sandbox account out)', () => {
  it('prints the authStatus verdict for the profile it probed, its error a problem document, exit 1', async () => {
    sim.scenario.signOut(SANDBOX_EMAIL);
    const r = await run(['auth', 'status', '--json'], { sandbox: true });
    expect(r.exitCode, describeRun(['auth status (signed out)'], r)).toBe(1);
    const payload = JSON.parse(r.stdout) as { status: string; profile: string; error: { type: string } };
    expectValid(operationNamed('authStatus').output, payload, 'auth status (signed out)');
    expect(payload.status).not.toBe('authenticated');
    expect(payload.status).toBe(String(payload.error.type).slice(ERROR_TYPE_BASE.length).replace(/-/g, '_'));
    expect(payload.profile).toBe('sandbox');
    expectValid(S.problemDocument, payload.error, 'auth status (signed out) error');
  }, 60_000);
});
