import { describe, expect, it } from 'vitest';
import { mcpConfigPath, mcpEntryFor } from './mcpConfigPath.js';

describe('mcpConfigPath', () => {
  it('follows each client per OS', () => {
    const linux = { platform: 'linux' as const, home: '/home/u', env: {} };
    const mac = { platform: 'darwin' as const, home: '/Users/u', env: {} };
    const win = {
      platform: 'win32' as const,
      home: 'C:\\Users\\u',
      env: { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' },
    };
    expect(mcpConfigPath('claude-desktop', linux)).toBe('/home/u/.config/Claude/claude_desktop_config.json');
    expect(mcpConfigPath('claude-desktop', { ...linux, env: { XDG_CONFIG_HOME: '/x' } })).toBe(
      '/x/Claude/claude_desktop_config.json',
    );
    expect(mcpConfigPath('claude-desktop', mac)).toBe(
      '/Users/u/Library/Application Support/Claude/claude_desktop_config.json',
    );
    expect(mcpConfigPath('claude-desktop', win)).toBe(
      'C:\\Users\\u\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
    );
    expect(mcpConfigPath('cursor', mac)).toBe('/Users/u/.cursor/mcp.json');
    expect(mcpConfigPath('cursor', win)).toBe('C:\\Users\\u\\.cursor\\mcp.json');
    expect(mcpConfigPath('vscode', linux)).toBe('/home/u/.config/Code/User/mcp.json');
    expect(mcpConfigPath('vscode', mac)).toBe('/Users/u/Library/Application Support/Code/User/mcp.json');
  });

  it("uses VS Code's servers + type stdio schema, mcpServers elsewhere, and never --no-spend", () => {
    expect(mcpEntryFor('vscode')).toEqual({
      rootKey: 'servers',
      entry: { type: 'stdio', command: 'gflow', args: ['mcp', 'run'] },
    });
    expect(mcpEntryFor('cursor')).toEqual({ rootKey: 'mcpServers', entry: { command: 'gflow', args: ['mcp', 'run'] } });
  });
});
