import { NO_SPEND_FLAG, PROFILE_FLAG, defineLeaf, flag, type CommandDef } from '@gflow/cli';

/** `--flows DIR` (repeatable): extra directories of declarative MCP flows, besides <home>/flows. */
export const FLOWS_FLAG = flag({
  key: 'flows',
  kind: 'string',
  repeatable: true,
  valueHint: 'DIR',
  description:
    'Also load declarative MCP flows (*.yaml) from DIR (repeatable); <home>/flows is always loaded and watched.',
});

export function flowsDirsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.length > 0) : [];
}

/**
 * `gflow mcp run`: the MCP server over stdio. stdout carries JSON-RPC only
 * (@gflow/mcp guards it); logs go to stderr. `--profile` sets
 * GFLOW_CLI_PROFILE, `--no-spend` GFLOW_MCP_NO_SPEND for this server.
 */
export const mcpRunCommand: CommandDef = defineLeaf({
  name: 'run',
  description: 'Serve gflow to an MCP client over stdio (Claude Desktop, Cursor, VS Code, Claude Code).',
  surface: 'mcp',
  json: false,
  handlesInterrupt: true,
  flags: () => [
    { ...PROFILE_FLAG, description: 'Default profile for tool calls (sets GFLOW_CLI_PROFILE).' },
    NO_SPEND_FLAG,
    FLOWS_FLAG,
  ],
  examples: [
    'gflow mcp run',
    'gflow mcp run --no-spend',
    'gflow mcp run --sandbox',
    'gflow mcp run --flows ./my-flows',
  ],
  async run(ctx, values) {
    if (typeof values['profile'] === 'string') ctx.setSettingFlag('profile', values['profile']);
    const gflow = await ctx.gflow();
    const { serveGflowStdio } = await import('@gflow/mcp');
    const handle = serveGflowStdio(gflow, { handleSignals: false, flows: { dirs: flowsDirsOf(values['flows']) } });
    const stop = (): void => void handle.close();
    ctx.signal.addEventListener('abort', stop, { once: true });
    await handle.closed;
    ctx.signal.removeEventListener('abort', stop);
    return undefined;
  },
});
