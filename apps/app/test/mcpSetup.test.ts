import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GFLOW_BIN, type CliOptions, cli as runCli, json, makeHome } from '@gflow/testkit/cli';

/** A PATH without any gflow on it (the binary runs as `node …/bin/gflow.js`, as from npx or the repository). */
const NO_GFLOW_PATH = makeHome('empty-bin');
const cli = (args: readonly string[], options: CliOptions = {}) =>
  runCli(args, { ...options, env: { PATH: NO_GFLOW_PATH, ...options.env } });

/** What is written when gflow is not on PATH: this run's node and script, by absolute path. */
const ABSOLUTE = { command: process.execPath, args: [fs.realpathSync(GFLOW_BIN), 'mcp', 'run'] };
const TARGETS = [
  { target: 'claude-desktop', rootKey: 'mcpServers', entry: ABSOLUTE },
  { target: 'cursor', rootKey: 'mcpServers', entry: ABSOLUTE },
  { target: 'vscode', rootKey: 'servers', entry: { type: 'stdio', ...ABSOLUTE } },
] as const;

describe.each(TARGETS)('gflow mcp setup --target $target', ({ target, rootKey, entry }) => {
  it('creates a missing config (no backup), indent 2 and a trailing newline, never --no-spend', async () => {
    const home = makeHome();
    const file = path.join(home, 'client', 'config.json');
    const r = await cli(['mcp', 'setup', '--target', target, '--config-path', file, '--json'], { home });
    expect(r.exitCode).toBe(0);
    expect(json(r)).toMatchObject({ status: 'configured', target, config_path: file, backup_path: null });
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toBe(`${JSON.stringify({ [rootKey]: { gflow: entry } }, null, 2)}\n`);
    expect(text).not.toContain('no-spend');
  });

  it('merges beside other entries and writes <name>.gflow-backup first', async () => {
    const home = makeHome();
    const file = path.join(home, 'config.json');
    const before = { theme: 'dark', [rootKey]: { other: { command: 'other-server' } } };
    fs.writeFileSync(file, JSON.stringify(before));
    const r = await cli(['mcp', 'setup', '--target', target, '--json'], {
      home,
      env: { GFLOW_CLI_MCP_CONFIG_PATH: file },
    });
    expect(r.exitCode).toBe(0);
    expect(json(r)).toMatchObject({ status: 'configured', backup_path: `${file}.gflow-backup` });
    expect(fs.readFileSync(`${file}.gflow-backup`, 'utf8')).toBe(JSON.stringify(before));
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
      theme: 'dark',
      [rootKey]: { other: { command: 'other-server' }, gflow: entry },
    });
  });

  it('leaves an existing gflow or gflow-cli entry untouched ("Already configured")', async () => {
    for (const name of ['gflow', 'gflow-cli']) {
      const home = makeHome();
      const file = path.join(home, 'config.json');
      const text = JSON.stringify({
        [rootKey]: { [name]: { command: 'uv', args: ['--directory', '/src', 'run', 'gflow', 'mcp', 'run'] } },
      });
      fs.writeFileSync(file, text);
      const r = await cli(['mcp', 'setup', '--target', target, '--config-path', file], { home });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain('Already configured');
      expect(fs.readFileSync(file, 'utf8')).toBe(text);
      expect(fs.existsSync(`${file}.gflow-backup`)).toBe(false);
    }
  });

  it('refuses a corrupt or non-object config with exit 11 and leaves it untouched', async () => {
    for (const text of ['{ not json', '[1, 2]', JSON.stringify({ [rootKey]: ['x'] })]) {
      const home = makeHome();
      const file = path.join(home, 'config.json');
      fs.writeFileSync(file, text);
      const r = await cli(['mcp', 'setup', '--target', target, '--config-path', file], { home });
      expect(r.exitCode, text).toBe(11);
      expect(r.stderr).toMatch(/^Error: \[ConfigurationError\]/);
      expect(fs.readFileSync(file, 'utf8')).toBe(text);
      expect(fs.existsSync(`${file}.gflow-backup`)).toBe(false);
    }
  });
});

describe('gflow mcp setup defaults', () => {
  it('writes the per-OS path of the target under HOME / XDG_CONFIG_HOME when no override is given', async () => {
    const home = makeHome();
    const r = await cli(['mcp', 'setup', '--target', 'cursor', '--json'], { home });
    expect(r.exitCode).toBe(0);
    expect(json(r)['config_path']).toBe(path.join(home, '.cursor', 'mcp.json'));
    const claude = json(await cli(['mcp', 'setup', '--json'], { home }));
    if (process.platform === 'linux')
      expect(claude['config_path']).toBe(path.join(home, '.config', 'Claude', 'claude_desktop_config.json'));
    expect(claude['target']).toBe('claude-desktop');
  });
});

describe('gflow mcp setup: what the entry runs', () => {
  it('writes the absolute node and script when gflow is not on PATH, and says so', async () => {
    const home = makeHome();
    const file = path.join(home, 'config.json');
    const r = await cli(['mcp', 'setup', '--target', 'cursor', '--config-path', file], { home });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain(`It starts: ${process.execPath} ${fs.realpathSync(GFLOW_BIN)} mcp run`);
    expect(r.stdout).toContain('absolute paths: gflow is not on PATH');
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ mcpServers: { gflow: ABSOLUTE } });
  });

  it('writes "gflow" when the gflow on PATH is this binary (through a symlink, as npm links it)', async () => {
    const home = makeHome();
    const bin = path.join(home, 'bin');
    fs.mkdirSync(bin);
    fs.symlinkSync(GFLOW_BIN, path.join(bin, 'gflow'));
    const file = path.join(home, 'config.json');
    const r = await cli(['mcp', 'setup', '--target', 'vscode', '--config-path', file, '--json'], {
      home,
      env: { PATH: `${bin}:${NO_GFLOW_PATH}` },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(json(r)).toMatchObject({ launch: 'path', entry: { type: 'stdio', command: 'gflow', args: ['mcp', 'run'] } });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
      servers: { gflow: { type: 'stdio', command: 'gflow', args: ['mcp', 'run'] } },
    });
  });

  it('writes the absolute paths when the gflow on PATH is another program, naming it', async () => {
    const home = makeHome();
    const bin = path.join(home, 'bin');
    fs.mkdirSync(bin);
    const other = path.join(bin, 'gflow');
    fs.writeFileSync(other, '#!/bin/sh\necho another gflow\n', { mode: 0o755 });
    const file = path.join(home, 'config.json');
    const r = await cli(['mcp', 'setup', '--target', 'claude-desktop', '--config-path', file, '--json'], {
      home,
      env: { PATH: `${bin}:${NO_GFLOW_PATH}` },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(json(r)).toMatchObject({ launch: 'absolute', entry: ABSOLUTE });
    expect(String(json(r)['launch_reason'])).toContain(`the gflow on PATH (${other}) is another file`);
  });
});

describe('gflow mcp setup --target vscode: mcp.json is JSON with comments', () => {
  const JSONC = [
    '\uFEFF// VS Code: user MCP servers',
    '{',
    '  /* servers I run */',
    '  "servers": {',
    '    "other": {',
    '      "type": "stdio", // trailing comment',
    '      "command": "other-server",',
    '    }, // keep me',
    '  },',
    '  "inputs": [], /* block, after a comma */',
    '}',
    '',
  ].join('\n');

  it('adds the entry as text: the BOM, every comment, the trailing commas and the layout stay', async () => {
    const home = makeHome();
    const file = path.join(home, 'mcp.json');
    fs.writeFileSync(file, JSONC);
    const r = await cli(['mcp', 'setup', '--target', 'vscode', '--config-path', file, '--json'], { home });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(json(r)).toMatchObject({ status: 'configured', backup_path: `${file}.gflow-backup` });
    expect(fs.readFileSync(`${file}.gflow-backup`, 'utf8')).toBe(JSONC);
    const after = fs.readFileSync(file, 'utf8');
    const entry = JSON.stringify({ type: 'stdio', ...ABSOLUTE }, null, 2)
      .split('\n')
      .join('\n    ');
    expect(after).toBe(JSONC.replace('    }, // keep me\n', `    }, // keep me\n    "gflow": ${entry},\n`));
    // Stripped of its comments and trailing commas, it is the old value plus the entry.
    const plain = after
      .replace(/^\uFEFF/, '')
      .replace(/\/\/.*$/gm, '')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/,(\s*[}\]])/g, '$1');
    expect(JSON.parse(plain)).toEqual({
      servers: { other: { type: 'stdio', command: 'other-server' }, gflow: { type: 'stdio', ...ABSOLUTE } },
      inputs: [],
    });

    const again = await cli(['mcp', 'setup', '--target', 'vscode', '--config-path', file], { home });
    expect(again.stdout).toContain('Already configured');
    expect(fs.readFileSync(file, 'utf8')).toBe(after);
  });

  it('adds a servers object to a file without one, keeping its comments', async () => {
    const home = makeHome();
    const file = path.join(home, 'mcp.json');
    const text = '{\n  // nothing yet\n  "inputs": [],\n}\n';
    fs.writeFileSync(file, text);
    const r = await cli(['mcp', 'setup', '--target', 'vscode', '--config-path', file], { home });
    expect(r.exitCode, r.stderr).toBe(0);
    const after = fs.readFileSync(file, 'utf8');
    expect(after.startsWith('{\n  // nothing yet\n  "inputs": [],\n  "servers": {\n    "gflow": {\n')).toBe(true);
    expect(after.endsWith('  },\n}\n')).toBe(true);
  });

  it('refuses JSONC it cannot read (exit 11) and leaves the file as it was', async () => {
    for (const text of ['{ /* never closed ', '{ "servers": { "a": 1 } } trailing', '// only a comment\n']) {
      const home = makeHome();
      const file = path.join(home, 'mcp.json');
      fs.writeFileSync(file, text);
      const r = await cli(['mcp', 'setup', '--target', 'vscode', '--config-path', file], { home });
      expect(r.exitCode, text).toBe(11);
      expect(r.stderr).toContain('is not valid JSON with comments');
      expect(r.stderr).toContain('left untouched');
      expect(fs.readFileSync(file, 'utf8')).toBe(text);
      expect(fs.existsSync(`${file}.gflow-backup`)).toBe(false);
    }
  });

  it('Claude Desktop and Cursor files stay strict JSON: a comment is refused (exit 11), untouched', async () => {
    const home = makeHome();
    const file = path.join(home, 'config.json');
    const text = '{ // a comment\n "mcpServers": {} }\n';
    fs.writeFileSync(file, text);
    const r = await cli(['mcp', 'setup', '--target', 'cursor', '--config-path', file], { home });
    expect(r.exitCode).toBe(11);
    expect(r.stderr).toContain('is not valid JSON');
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
  });
});
