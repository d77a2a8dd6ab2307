import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Gflow } from '@gflow/core';
import { afterEach, describe, expect, it } from 'vitest';
import { flowLoadReport } from '../../src/flows/openFlowRegistry.js';
import { formatFlowProblem } from '../../src/flows/flowProblem.js';
import { openFlowRegistry, type FlowRegistry } from '../../src/index.js';
import { captureLogger, makeTestGflow } from '../testGflow.js';
import { makeFlowDir, writeFiles } from './flowFixtures.js';

const EXAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/examples/flows');

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function load(
  files: Record<string, string>,
  options: { noSpend?: boolean } = {},
): { registry: FlowRegistry; dir: string; gflow: Gflow; lines: string[] } {
  const { lines, logger } = captureLogger();
  const { gflow } = makeTestGflow({ ...options, logger });
  const dir = makeFlowDir(files);
  const registry = openFlowRegistry(gflow, { dirs: [dir], includeHome: false, watch: false });
  if (!registry) throw new Error('flows disabled');
  cleanups.push(
    () => registry.close(),
    () => gflow.close(),
  );
  return { registry, dir, gflow, lines };
}

const GOOD = `
- mcp_tool:
    name: models
    description: v1
    steps:
      - operation: listModels
- mcp_prompt:
    name: hello
    template: "Hello {{arguments.who}}"
    arguments: [{ name: who }]
`;

const OTHER = `
- mcp_prompt:
    name: other_prompt
    template: hi
`;

/** Replaces the demo flow with bad text, reloads, and checks the old version stayed live. */
function expectRejected(registry: FlowRegistry, dir: string, text: string): ReturnType<FlowRegistry['problems']> {
  fs.writeFileSync(path.join(dir, 'a.yaml'), text);
  const change = registry.reload();
  expect(change).toEqual({});
  expect(registry.tools().map((t) => t.description)).toEqual(['v1']);
  expect(
    registry
      .prompts()
      .map((p) => p.name)
      .sort(),
  ).toEqual(['hello', 'other_prompt']);
  return registry.problems();
}

describe('loading flow files', () => {
  it('reports a YAML syntax error with its line and keeps the previous version', () => {
    const { registry, dir, lines } = load({ 'a.yaml': GOOD, 'b.yaml': OTHER });
    expect(registry.problems()).toEqual([]);
    const problems = expectRejected(registry, dir, '- mcp_tool:\n    name: models\n    description: [unclosed\n');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      file: path.join(dir, 'a.yaml'),
      severity: 'error',
      reason: expect.stringMatching(/^YAML: /),
    });
    expect(problems[0]?.line).toBeGreaterThanOrEqual(3);
    expect(lines.some((line) => line.includes('mcp.flows.rejected') && line.includes('a.yaml:'))).toBe(true);
  });

  it('reports a misspelt key, a missing field and a bad entry kind with their lines', () => {
    const { registry, dir } = load({ 'a.yaml': GOOD, 'b.yaml': OTHER });
    const problems = expectRejected(
      registry,
      dir,
      [
        '- mcp_tool:',
        '    name: models',
        '    descripton: typo',
        '    steps:',
        '      - operation: listModels',
        '- mcp_widget: {}',
        '',
      ].join('\n'),
    );
    expect(problems.map((p) => [p.line, p.reason])).toEqual([
      [2, expect.stringContaining('description')],
      [2, expect.stringContaining('descripton')],
      [6, expect.stringContaining('mcp_tool, mcp_resource, mcp_prompt')],
    ]);
  });

  it('reports an unknown operation on the operation line', () => {
    const { registry, dir } = load({ 'a.yaml': GOOD, 'b.yaml': OTHER });
    const problems = expectRejected(
      registry,
      dir,
      [
        '- mcp_tool:',
        '    name: models',
        '    description: v2',
        '    steps:',
        '      - operation: listModels',
        '      - operation: makeCoffee',
        '',
      ].join('\n'),
    );
    expect(problems).toEqual([
      expect.objectContaining({ line: 6, reason: expect.stringContaining('unknown operation "makeCoffee"') }),
    ]);
  });

  it.each([
    ['an unknown argument', '{{arguments.whom}}', 'unknown variable "arguments.whom"'],
    ['an unknown root', '{{argumnts.who}}', 'unknown variable "argumnts.who"'],
    ['a syntax error', '{{#if arguments.who}}open', 'template syntax'],
    ['an unknown helper', '{{shout arguments.who}}', 'unknown helper "shout"'],
    ['a partial', '{{> header}}', 'partials'],
  ])('reports a template with %s on its line', (_what, template, reason) => {
    const { registry, dir } = load({ 'a.yaml': GOOD, 'b.yaml': OTHER });
    const text = [
      '- mcp_tool:',
      '    name: models',
      '    description: v2',
      '    steps: [{ operation: listModels }]',
      '- mcp_prompt:',
      '    name: hello',
      '    arguments: [{ name: who }]',
      `    template: ${JSON.stringify(template)}`,
      '',
    ].join('\n');
    const problems = expectRejected(registry, dir, text);
    expect(problems).toEqual([expect.objectContaining({ line: 8, reason: expect.stringContaining(reason) })]);
  });

  it('refuses a step that reads a later step, and accepts the same read from a later step', () => {
    const forward = [
      '- mcp_tool:',
      '    name: t',
      '    description: d',
      '    steps:',
      '      - name: a',
      '        operation: listModels',
      '      - name: b',
      '        operation: runPromptTools',
      '        arguments: { prompt: "{{steps.c.x}}", tools: [{ name: x }] }',
      '',
    ].join('\n');
    const { registry } = load({ 'a.yaml': forward });
    expect(registry.problems()).toEqual([
      expect.objectContaining({ line: 9, reason: expect.stringContaining('steps has a here') }),
    ]);
  });

  it('rejects name clashes with built-ins and with other flows; other flows stay unaffected', () => {
    const { registry, dir } = load({ 'a.yaml': GOOD, 'b.yaml': OTHER });
    const builtin = expectRejected(registry, dir, GOOD.replace('name: hello', 'name: expand_prompt'));
    expect(builtin).toEqual([
      expect.objectContaining({ line: 8, reason: 'name clash: prompt "expand_prompt" is a built-in gflow name' }),
    ]);
    const prefixed = expectRejected(registry, dir, GOOD.replace('name: models', 'name: gflow_models'));
    expect(prefixed[0]?.reason).toContain('tool "gflow_models" is a built-in gflow name');
    const other = expectRejected(registry, dir, GOOD.replace('name: hello', 'name: other_prompt'));
    expect(other).toEqual([
      expect.objectContaining({
        line: 8,
        reason: `name clash: prompt "other_prompt" is already declared in ${path.join(dir, 'b.yaml')}`,
      }),
    ]);
    // A new file that clashes with a live flow is refused; the live one keeps its entry.
    writeFiles(dir, { 'a.yaml': GOOD, 'c.yaml': OTHER });
    registry.reload();
    expect(registry.problems()).toEqual([
      expect.objectContaining({ file: path.join(dir, 'c.yaml'), reason: expect.stringContaining('other_prompt') }),
    ]);
    expect(registry.flows().map((f) => path.basename(f.file))).toEqual(['a.yaml', 'b.yaml']);
  });

  it('recovers when the file is fixed, and drops a removed file', () => {
    const { registry, dir } = load({ 'a.yaml': GOOD, 'b.yaml': OTHER });
    expectRejected(registry, dir, 'not: [valid');
    fs.writeFileSync(path.join(dir, 'a.yaml'), GOOD.replace('v1', 'v2'));
    expect(registry.reload()).toEqual({ tools: true });
    expect(registry.problems()).toEqual([]);
    fs.rmSync(path.join(dir, 'b.yaml'));
    expect(registry.reload()).toEqual({ prompts: true });
    expect(registry.prompts().map((p) => p.name)).toEqual(['hello']);
  });

  it('refuses resource files outside the flow directory', () => {
    const { registry } = load({
      'a.yaml': '- mcp_resource:\n    name: r\n    content: { resource: ../../etc/passwd }\n',
    });
    expect(registry.problems()).toEqual([
      expect.objectContaining({ line: 2, reason: expect.stringContaining('inside the flow') }),
    ]);
  });

  it('refuses a resource or completion file that is a symbolic link out of the flow directory (issue 40)', () => {
    const outside = makeFlowDir({ 'secret.txt': 'id_ed25519 private key', 'names.txt': 'Ada\n' });
    const { registry, dir } = load({
      'a.yaml': '- mcp_resource:\n    name: r\n    content: { resource: note.txt }\n',
      'b.yaml':
        '- mcp_prompt:\n    name: p\n    template: "{{arguments.who}}"\n    arguments: [{ name: who, completion: { resource: sub/names.txt } }]\n',
    });
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'note.txt'));
    fs.symlinkSync(outside, path.join(dir, 'sub'));
    registry.reload();
    expect(registry.resources()).toEqual([]);
    expect(registry.prompts()).toEqual([]);
    expect(registry.problems()).toEqual([
      expect.objectContaining({
        file: path.join(dir, 'a.yaml'),
        line: 3,
        reason: expect.stringContaining('symbolic link'),
      }),
      expect.objectContaining({ file: path.join(dir, 'b.yaml'), reason: expect.stringContaining('symbolic link') }),
    ]);
    // A link that stays inside the flow's directory is read.
    fs.rmSync(path.join(dir, 'note.txt'));
    fs.writeFileSync(path.join(dir, 'real.txt'), 'inside');
    fs.symlinkSync(path.join(dir, 'real.txt'), path.join(dir, 'note.txt'));
    registry.reload();
    expect(registry.resources().map((r) => r.text)).toEqual(['inside']);
  });

  it('loads the shipped example; under no-spend the spending tool is left out with a warning', () => {
    const spending = flowLoadReport([EXAMPLES]);
    expect(spending).toEqual([]);
    const { gflow } = makeTestGflow({ noSpend: true });
    cleanups.push(() => gflow.close());
    const readOnly = flowLoadReport([EXAMPLES], gflow);
    expect(readOnly).toEqual([
      expect.objectContaining({ severity: 'warning', line: 26, reason: expect.stringContaining('no-spend') }),
    ]);
    expect(formatFlowProblem(readOnly[0]!)).toMatch(/storyboard\.yaml:26: tool "storyboard_shot" is not registered/);
  });

  it('is switched off by config.toml [mcp_server] enabled = false', () => {
    const { gflow, home } = makeTestGflow();
    cleanups.push(() => gflow.close());
    fs.writeFileSync(path.join(home, 'config.toml'), '[mcp_server]\nenabled = false\n');
    expect(openFlowRegistry(gflow, { dirs: [makeFlowDir({ 'a.yaml': GOOD })], watch: false })).toBeUndefined();
    fs.writeFileSync(path.join(home, 'config.toml'), '[mcp_server]\nresource_uri_scheme = "studio"\n');
    const registry = openFlowRegistry(gflow, {
      dirs: [makeFlowDir({ 'a.yaml': '- mcp_resource: { name: r, content: x }\n' })],
      watch: false,
    });
    cleanups.push(() => registry?.close());
    expect(registry?.resources().map((r) => r.uri)).toEqual(['studio://a/r']);
  });
});
