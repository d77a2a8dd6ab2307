import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, json, makeHome } from '@gflow/testkit/cli';

const TARGETS = [
  { target: 'claude-desktop', rootKey: 'mcpServers', entry: { command: 'gflow', args: ['mcp', 'run'] } },
  { target: 'cursor', rootKey: 'mcpServers', entry: { command: 'gflow', args: ['mcp', 'run'] } },
  { target: 'vscode', rootKey: 'servers', entry: { type: 'stdio', command: 'gflow', args: ['mcp', 'run'] } },
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
