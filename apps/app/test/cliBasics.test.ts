import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, json, makeHome } from '@gflow/testkit/cli';

const APP_DIR = path.resolve(import.meta.dirname, '..');

const version = (JSON.parse(fs.readFileSync(path.join(APP_DIR, 'package.json'), 'utf8')) as { version: string })
  .version;

describe('gflow basics', () => {
  it('--version and -V print the package version', async () => {
    for (const flag of ['--version', '-V']) {
      const r = await cli([flag]);
      expect(r).toMatchObject({ exitCode: 0, stdout: `${version}\n` });
    }
  });

  it('--help lists every command group, and a leaf help has options and examples', async () => {
    const root = await cli(['--help']);
    expect(root.exitCode).toBe(0);
    for (const group of [
      'auth',
      'image',
      'video',
      'credits',
      'character',
      'instructions',
      'project',
      'data',
      'models',
      'tools',
      'mcp',
      'serve',
      'doctor',
      'update',
    ]) {
      expect(root.stdout).toMatch(new RegExp(`^  ${group}\\s`, 'm'));
    }
    const leaf = await cli(['image', 't2i', '--help']);
    expect(leaf.exitCode).toBe(0);
    expect(leaf.stdout).toContain('Usage: gflow image t2i [OPTIONS] [PROMPT...]');
    expect(leaf.stdout).toMatch(/-n, --count 1-4/);
    expect(leaf.stdout).toMatch(/--reference-entity ENTITY_ID \.\.\./);
    expect(leaf.stdout).toMatch(/--ui-mode auto\|classic\|agentic/);
    expect(leaf.stdout).toMatch(/--aspect .*default: 9:16/);
    expect(leaf.stdout).toContain('Examples:');
    const mcp = await cli(['mcp', '--help']);
    expect(mcp.stdout).toMatch(/^  run\s/m);
    expect(mcp.stdout).toMatch(/^  setup\s/m);
  });

  it('an unknown command or option, or a bad flag value, exits 2 with one clear line', async () => {
    const unknown = await cli(['frobnicate']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/^Error: \[UsageError\] Unknown command "frobnicate"/);
    const option = await cli(['models', '--frob']);
    expect(option.exitCode).toBe(2);
    expect(option.stderr).toContain('Unknown option --frob');
    const count = await cli(['image', 't2i', 'a fox', '-n', '9']);
    expect(count.exitCode).toBe(2);
    expect(count.stderr).toMatch(/^Error: \[BadParameterError\] --count: .*4/);
    expect(count.stderr).toMatch(/^Hint: /m);
    const aspect = await cli(['video', 't2v', 'waves', '--aspect', '4:3']);
    expect(aspect.exitCode).toBe(2);
    const missing = await cli(['image', 'i2i', 'a fox']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('--ref');
  });

  it('a bad setting exits 11 naming the variable, before any work', async () => {
    const r = await cli(['models'], { env: { GFLOW_CLI_TIMEOUT_SECONDS: 'abc' } });
    expect(r.exitCode).toBe(11);
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toBe('Error: [ConfigurationError] GFLOW_CLI_TIMEOUT_SECONDS: expected seconds 1–3600, got "abc"');
    expect(lines[1]).toMatch(/^Hint: /);
    expect(r.stdout).toBe('');
  });

  it('a profile that looks like a path exits 13', async () => {
    for (const args of [
      ['data', 'list', 'projects', '--profile', '../x'],
      ['image', 't2i', 'fox', '--profile', '../x'],
      ['auth', 'use', '../x'],
    ]) {
      const r = await cli(args);
      expect(r.exitCode, args.join(' ')).toBe(13);
      expect(r.stderr).toContain('[SecurityError]');
    }
  });

  it('--json writes exactly one JSON document, for a success and for a failure', async () => {
    const ok = await cli(['models', '--json']);
    expect(ok.exitCode).toBe(0);
    const models = json(ok) as {
      image: { models: Array<{ name: string }> };
      video: { models: Array<{ name: string }> };
    };
    expect(models.image.models.map((m) => m.name)).toContain('nano2');
    expect(models.video.models.length).toBeGreaterThan(0);

    const bad = await cli(['image', 't2i', 'fox', '--count', 'abc', '--json']);
    expect(bad.exitCode).toBe(2);
    const envelope = json(bad) as { status: string; error: Record<string, unknown> };
    expect(envelope.status).toBe('error');
    const problem = envelope.error;
    expect(problem).toMatchObject({
      type: expect.stringContaining('bad-parameter'),
      status: 400,
      retryable: false,
      title: 'Bad Parameter',
    });
    expect(String(problem['detail'])).toContain('--count');
    expect(String(problem['message'])).toMatch(/^\[BadParameterError\]/);

    const setting = await cli(['models', '--json'], { env: { GFLOW_CLI_TIMEOUT_SECONDS: 'abc' } });
    expect(setting.exitCode).toBe(11);
    expect(json(setting)).toMatchObject({ status: 'error', error: { title: 'Configuration Error', retryable: false } });
  });

  it('models prints a table on a terminal-less stdout too', async () => {
    const r = await cli(['models']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^IMAGE MODEL\s+LABEL/m);
    expect(r.stdout).toMatch(/^VIDEO MODEL\s+LABEL/m);
  });

  it('tools list, show and run use the prompt-tool operations', async () => {
    const home = makeHome();
    const list = await cli(['tools', 'list', '--json'], { home });
    expect(list.exitCode).toBe(0);
    const tools = (json(list) as { tools: Array<{ name: string }> }).tools;
    expect(tools.length).toBeGreaterThan(0);
    const name = (tools[0] as { name: string }).name;
    const show = await cli(['tools', 'show', name, '--json'], { home });
    expect(show.exitCode).toBe(0);
    expect(json(show)).toMatchObject({ name });
    const run = await cli(['tools', 'run', name, 'a fox in the snow', '--json'], { home });
    expect(run.exitCode).toBe(0);
    expect(json(run)).toMatchObject({
      original: 'a fox in the snow',
      expanded: expect.any(String),
      was_expanded: expect.any(Boolean),
    });
    const missing = await cli(['tools', 'show', 'no-such-tool'], { home });
    expect(missing.exitCode).toBe(2);
  });

  it('records each command in the usage statistics', async () => {
    const home = makeHome();
    await cli(['models'], { home });
    await cli(['tools', 'list'], { home });
    const { createGflow } = await import('@gflow/core');
    const gflow = createGflow({ surface: 'library', env: { GFLOW_CLI_HOME: home } });
    try {
      const stats = JSON.stringify((await gflow.ready()).catalog.usage.stats({ weeks: 1 }));
      expect(stats).toContain('models');
      expect(stats).toContain('tools list');
    } finally {
      await gflow.close();
    }
  });
});
