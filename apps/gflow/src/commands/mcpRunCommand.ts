import { NO_SPEND_FLAG, PROFILE_FLAG, defineLeaf } from '@gflow/cli';

/**
 * `gflow mcp run`: the MCP server over stdio. stdout carries JSON-RPC only
 * (@gflow/mcp guards it); logs go to stderr. `--profile` sets
 * GFLOW_CLI_PROFILE, `--no-spend` GFLOW_MCP_NO_SPEND for this server.
 */
export const mcpRunCommand = defineLeaf({
  name: 'run',
  description: 'Serve gflow to an MCP client over stdio (Claude Desktop, Cursor, VS Code, Claude Code).',
  surface: 'mcp',
  json: false,
  handlesInterrupt: true,
  flags: () => [{ ...PROFILE_FLAG, description: 'Default profile for tool calls (sets GFLOW_CLI_PROFILE).' }, NO_SPEND_FLAG],
  examples: ['gflow mcp run', 'gflow mcp run --no-spend', 'gflow mcp run --sandbox'],
  async run(ctx, values) {
    if (typeof values['profile'] === 'string') ctx.setSettingFlag('profile', values['profile']);
    const gflow = await ctx.gflow();
    const { serveGflowStdio } = await import('@gflow/mcp');
    const handle = serveGflowStdio(gflow, { handleSignals: false });
    const stop = (): void => void handle.close();
    ctx.signal.addEventListener('abort', stop, { once: true });
    await handle.closed;
    ctx.signal.removeEventListener('abort', stop);
    return undefined;
  },
});
