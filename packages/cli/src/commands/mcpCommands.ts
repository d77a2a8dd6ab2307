import path from 'node:path';
import { flag } from '../args/flagSpec.js';
import { defineGroup, defineLeaf } from '../framework/commandSpec.js';
import { mcpLaunchCommand } from '../mcpSetup/launchCommand.js';
import { MCP_TARGETS, type McpTarget, mcpConfigPath } from '../mcpSetup/mcpConfigPath.js';
import { mergeMcpConfig } from '../mcpSetup/mergeMcpConfig.js';

/** Overrides the client config file (tests, unusual installs); `--config-path` wins. */
export const MCP_CONFIG_PATH_ENV = 'GFLOW_CLI_MCP_CONFIG_PATH';

const setup = defineLeaf({
  name: 'setup',
  description:
    'Register gflow in an MCP client config (merged; a backup is written first; an existing entry is left alone).',
  recordUsage: false,
  sandbox: false,
  flags: () => [
    flag({
      key: 'target',
      kind: 'enum',
      options: MCP_TARGETS,
      defaultValue: 'claude-desktop',
      description: 'The MCP client: claude-desktop, cursor or vscode.',
    }),
    flag({
      key: 'config_path',
      name: 'config-path',
      kind: 'string',
      valueHint: 'FILE',
      description: `Use this config file instead of the client's usual one (also ${MCP_CONFIG_PATH_ENV}).`,
    }),
  ],
  examples: ['gflow mcp setup', 'gflow mcp setup --target cursor', 'gflow mcp setup --target vscode --json'],
  async run(ctx, values) {
    const target = String(values['target']).toLowerCase() as McpTarget;
    const override = (values['config_path'] as string | undefined) ?? ctx.env[MCP_CONFIG_PATH_ENV];
    const file = override ? path.resolve(ctx.cwd, override) : mcpConfigPath(target);
    // `gflow` by name only when the gflow on PATH is this binary; else this run's node and script.
    const launch = mcpLaunchCommand({
      env: ctx.env,
      platform: process.platform,
      execPath: process.execPath,
      scriptPath: process.argv[1] ?? '',
    });
    const result = mergeMcpConfig(file, target, launch);
    const runs = [launch.command, ...launch.args]
      .map((part) => (/\s/.test(part) ? JSON.stringify(part) : part))
      .join(' ');
    const text =
      result.status === 'already_configured'
        ? `Already configured: "${result.server_name}" is in ${result.config_path}; left unchanged.`
        : `Added "gflow" to ${result.config_path}${result.backup_path ? ` (backup: ${result.backup_path})` : ''}.\n` +
          `It starts: ${runs}\n(${launch.via === 'path' ? 'by name: ' : 'absolute paths: '}${launch.reason}.)\n` +
          'Restart the client to load it. For a read-only server, add "--no-spend" to its args yourself.';
    return { data: result, text };
  },
});

export const mcpCommand = defineGroup({
  name: 'mcp',
  description:
    'The MCP server: setup registers gflow with Claude Desktop, Cursor or VS Code; run serves it over stdio.',
  children: { setup },
});
