// One case per runnable command of the real tree (walkCli's leaves plus bare groups like `gflow
// auth`), in exactly one of the tables the command-output suites run (commandOutputs/*Cases.ts);
// and the validators those suites use can fail. Nothing here runs the binary.
import { loadOperations } from '@gflow/core/surfaces';
import { beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_CASES } from './commandOutputs/catalogCases.js';
import {
  type CaseTable,
  type CommandTree,
  commandTree,
  operationNamed,
  toolElement,
} from './commandOutputs/harness.js';
import { SANDBOX_CASES } from './commandOutputs/sandboxCases.js';
import { STATIC_CASES } from './commandOutputs/staticCases.js';
import * as S from './outputSchemas.js';

// Every operation, loaded (the surfaces' registry loads them on demand).
const OPERATIONS = await loadOperations();

const TABLES: Record<string, CaseTable<never>> = {
  'commandOutputs/staticCases.ts': STATIC_CASES,
  'commandOutputs/catalogCases.ts': CATALOG_CASES,
  'commandOutputs/sandboxCases.ts': SANDBOX_CASES,
};
const CASES = Object.entries(TABLES).flatMap(([file, table]) =>
  Object.entries(table).map(([label, c]) => ({ file, label, c })),
);

let tree: CommandTree;
beforeAll(async () => {
  tree = await commandTree();
});

describe('every command has a case', () => {
  it('the tables name exactly the leaves of the command tree, each in one table', () => {
    expect(tree.has('auth'), 'bare `gflow auth` is a command of its own').toBe(true);
    const labels = CASES.map((x) => x.label);
    const missing = [...tree.keys()].filter((p) => !labels.includes(p));
    const stale = labels.filter((p) => !tree.has(p));
    const twice = CASES.filter((x, i) => labels.indexOf(x.label) !== i).map((x) => `${x.label} (${x.file})`);
    expect(missing, 'leaves without a case in commandOutputs/*Cases.ts').toEqual([]);
    expect(stale, 'cases for commands that no longer exist').toEqual([]);
    expect(twice, 'commands with a case in two tables').toEqual([]);
  });

  it('a case checks the operation schema exactly when the leaf runs an operation, and JSON exactly when it has --json', () => {
    for (const { label: p, c } of CASES) {
      const leaf = tree.get(p);
      if (!leaf) continue;
      expect('op' in c.output, `${p}: operation ${leaf.operation ?? '(none)'}`).toBe(leaf.operation !== undefined);
      if (leaf.operation)
        expect(
          OPERATIONS.some((o) => o.name === leaf.operation),
          `${p}: ${leaf.operation} is in core's OPERATIONS`,
        ).toBe(true);
      expect('server' in c.output, `${p}: --json ${leaf.json ? 'offered' : 'not offered'}`).toBe(!leaf.json);
    }
  });

  it('the validators reject payloads that are not the contract', () => {
    expect(operationNamed('generateImage').output.safeParse({ status: 'done' }).success).toBe(false);
    expect(operationNamed('listTools').output.safeParse({ tools: [{ title: 'no name' }] }).success).toBe(false);
    expect(
      operationNamed('generateBatch').output.safeParse({
        status: 'completed',
        flow_project_id: null,
        items: [{ status: 'nope' }],
        pauses_ms: [],
        exit_code: 0,
      }).success,
    ).toBe(false);
    expect(
      operationNamed('generateBatch').output.safeParse({ status: 'completed', items: [], pauses_ms: [] }).success,
    ).toBe(false);
    expect(toolElement(operationNamed('listTools').output).safeParse({ name: 7 }).success).toBe(false);
    expect(
      operationNamed('telemetry').output.safeParse({
        status: 'ok',
        recording: 'on',
        upload: false,
        config_path: '/x',
        extra: 1,
      }).success,
    ).toBe(false);
    expect(
      operationNamed('listMedia').output.safeParse({
        status: 'ok',
        items: [{ media_id: 'x' }],
        count: 1,
        offset: 0,
        has_more: false,
        next_offset: null,
      }).success,
    ).toBe(false);
    expect(
      S.problemDocument.safeParse({
        type: 'https://example.com/x',
        title: 't',
        status: 400,
        detail: 'd',
        instance: 'gflow:error:0123abcd',
        retryable: false,
        message: 'm',
      }).success,
    ).toBe(false);
    expect(
      S.problemDocument.safeParse({
        type: 'https://gflow.dev/errors/bad-parameter',
        title: 't',
        status: 400,
        detail: 'd',
        instance: 'gflow:error:0123abcd',
        message: 'm',
      }).success,
    ).toBe(false);
  });
});
