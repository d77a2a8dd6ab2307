import { BadParameterError } from '@gflow/errors';
import { NO_SPEND_FLAG, PROFILE_FLAG, defineLeaf, flag, type CommandDef } from '@gflow/cli';
import { FLOWS_FLAG, flowsDirsOf } from './mcpRunCommand.js';

/**
 * `gflow serve`: the MCP server over Streamable HTTP at /mcp (or the
 * deprecated HTTP+SSE with --transport sse). A bind other than 127.0.0.1
 * needs GFLOW_CLI_DAEMON_TOKEN (exit 11 otherwise).
 */
export const serveCommand: CommandDef = defineLeaf({
  name: 'serve',
  description: 'Serve gflow over HTTP: MCP at /mcp (Streamable HTTP), or legacy SSE with --transport sse.',
  surface: 'http',
  json: false,
  handlesInterrupt: true,
  flags: () => [
    flag({
      key: 'port',
      kind: 'number',
      valueHint: 'PORT',
      description:
        'Port (default GFLOW_DAEMON_PORT, else config.toml [mcp_server] port, else 8000; 0 picks a free one).',
    }),
    flag({
      key: 'host',
      kind: 'string',
      valueHint: 'HOST',
      defaultValue: '127.0.0.1',
      description: 'Address to bind; anything but 127.0.0.1 needs GFLOW_CLI_DAEMON_TOKEN.',
    }),
    flag({
      key: 'transport',
      kind: 'enum',
      options: ['http', 'sse'],
      defaultValue: 'http',
      description: 'http (Streamable HTTP at /mcp) or sse (deprecated /sse + /messages/).',
    }),
    { ...PROFILE_FLAG, description: 'Default profile for tool calls (sets GFLOW_CLI_PROFILE).' },
    NO_SPEND_FLAG,
    FLOWS_FLAG,
  ],
  examples: [
    'gflow serve',
    'gflow serve --port 8765 --no-spend',
    'GFLOW_CLI_DAEMON_TOKEN=… gflow serve --host 0.0.0.0',
  ],
  async run(ctx, values) {
    if (typeof values['profile'] === 'string') ctx.setSettingFlag('profile', values['profile']);
    const gflow = await ctx.gflow();
    // An explicit --port or GFLOW_DAEMON_PORT wins; otherwise config.toml's [mcp_server] port, then 8000.
    const port =
      typeof values['port'] === 'number'
        ? values['port']
        : gflow.settings.sources.daemonPort
          ? gflow.settings.daemonPort
          : undefined;
    if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
      throw new BadParameterError(`--port must be an integer 0–65535; got ${JSON.stringify(values['port'])}.`, {
        extensions: { parameter: 'port' },
      });
    }
    const transport = String(values['transport']).toLowerCase() === 'sse' ? 'sse' : 'http';
    const { startGflowHttpServer } = await import('@gflow/http');
    const server = await startGflowHttpServer(gflow, {
      host: String(values['host']),
      ...(port === undefined ? {} : { port }),
      transport,
      handleSignals: false,
      flows: { dirs: flowsDirsOf(values['flows']) },
    });
    ctx.io.stderr.write(
      `gflow serve: listening on ${server.url}${transport === 'sse' ? ' (deprecated SSE: /sse, /messages/)' : '/mcp'}; Ctrl-C stops.\n`,
    );
    const stop = (): void => void server.close();
    ctx.signal.addEventListener('abort', stop, { once: true });
    await server.closed;
    ctx.signal.removeEventListener('abort', stop);
    return undefined;
  },
});
