import os from 'node:os';
import path from 'node:path';

export const MCP_TARGETS = ['claude-desktop', 'cursor', 'vscode'] as const;
export type McpTarget = (typeof MCP_TARGETS)[number];

export interface PlatformInfo {
  readonly platform: NodeJS.Platform;
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;
}

/** The per-user application config root: %APPDATA%, ~/Library/Application Support, $XDG_CONFIG_HOME or ~/.config. */
function appConfigRoot({ platform, home, env }: PlatformInfo): string {
  if (platform === 'win32') return env['APPDATA'] || path.join(home, 'AppData', 'Roaming');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support');
  return env['XDG_CONFIG_HOME'] || path.join(home, '.config');
}

/** Where each MCP client keeps its server list (docs/CLI.md § mcp setup). */
export function mcpConfigPath(
  target: McpTarget,
  info: PlatformInfo = { platform: process.platform, home: os.homedir(), env: process.env },
): string {
  const pathApi = info.platform === 'win32' ? path.win32 : path.posix;
  switch (target) {
    case 'claude-desktop':
      return pathApi.join(appConfigRoot(info), 'Claude', 'claude_desktop_config.json');
    case 'cursor':
      return pathApi.join(info.home, '.cursor', 'mcp.json');
    case 'vscode':
      return pathApi.join(appConfigRoot(info), 'Code', 'User', 'mcp.json');
  }
}

/** The root key and the entry each client expects. Never `--no-spend`: that is the user's choice to add. */
export function mcpEntryFor(
  target: McpTarget,
  launch: { readonly command: string; readonly args: readonly string[] } = { command: 'gflow', args: ['mcp', 'run'] },
): {
  readonly rootKey: 'mcpServers' | 'servers';
  readonly entry: Readonly<Record<string, unknown>>;
} {
  const base = { command: launch.command, args: [...launch.args] };
  return target === 'vscode'
    ? { rootKey: 'servers', entry: { type: 'stdio', ...base } }
    : { rootKey: 'mcpServers', entry: base };
}
