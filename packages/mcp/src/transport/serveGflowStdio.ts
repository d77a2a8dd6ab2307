import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createGflowMcpServer } from '../createGflowMcpServer.js';
import { FlowRegistry } from '../flows/flowRegistry.js';
import { openFlowRegistry, type FlowsOptions } from '../flows/openFlowRegistry.js';
import type { GflowLike, GflowLogger } from '../gflowPort.js';
import { filterJsonRpcInput } from './jsonRpcInput.js';
import { stdioTaskListens } from './stdioTaskListens.js';
import { redirectStdoutToStderr } from './stdoutGuard.js';

export interface ServeGflowStdioOptions {
  readonly logger?: GflowLogger;
  readonly docsDir?: string;
  /** Also stop on SIGINT/SIGTERM (the CLI entry sets it). */
  readonly handleSignals?: boolean;
  /**
   * Declarative flows: `<home>/flows` plus `dirs` (`--flows DIR`), watched
   * (default); an open registry to share; or false for none.
   */
  readonly flows?: FlowsOptions | FlowRegistry | false;
}

export interface GflowStdioHandle {
  /** Stops serving, cancels running jobs (gflow.close()) and restores stdout. */
  close(): Promise<void>;
  /** Settles once the server has shut down (client closed stdin, a signal, or close()). */
  readonly closed: Promise<void>;
}

/**
 * Serves gflow over stdio in both eras (the client's first message decides).
 * stdout carries JSON-RPC only: anything else written to it goes to stderr. Every malformed
 * message that carries an id is answered (-32600), and unparseable lines with -32700 (jsonRpcInput).
 * When the client closes stdin the server stops and running jobs are
 * cancelled (a job past its submit is recorded as indeterminate by core).
 */
export function serveGflowStdio(gflow: GflowLike, options: ServeGflowStdioOptions = {}): GflowStdioHandle {
  const logger = options.logger ?? gflow.logger;
  const guard = redirectStdoutToStderr();
  const ownsFlows = !(options.flows instanceof FlowRegistry) && options.flows !== false;
  let flows: FlowRegistry | undefined;
  try {
    flows =
      options.flows instanceof FlowRegistry
        ? options.flows
        : options.flows === false
          ? undefined
          : openFlowRegistry(gflow, options.flows ?? {}, logger);
  } catch (error) {
    guard.restore();
    throw error;
  }
  const writeLine = (message: unknown): void => void guard.protocolOut.write(`${JSON.stringify(message)}\n`);
  const taskListens = stdioTaskListens(gflow, writeLine, logger);
  // Malformed messages are answered here (JSON-RPC §5): the SDK's transport would drop them silently.
  const input = filterJsonRpcInput(
    process.stdin,
    writeLine,
    (why) => logger.warn('mcp.stdio.dropped', { why }),
    (message) => taskListens.divert(message),
  );
  const transport = new StdioServerTransport(input, guard.protocolOut);
  const handle = serveStdio(
    (ctx) =>
      createGflowMcpServer(gflow, {
        era: ctx.era,
        logger,
        flows,
        liveFlows: true,
        ...(options.docsDir ? { docsDir: options.docsDir } : {}),
      }),
    {
      transport,
      onerror: (error) => logger.warn('mcp.stdio.error', { error: error.message }),
    },
  );
  logger.info('mcp.stdio.ready', { noSpend: gflow.settings.noSpend === true });

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      process.stdin.off('end', onEnd);
      if (options.handleSignals) {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
      if (ownsFlows) flows?.close();
      taskListens.closeAll();
      try {
        await handle.close();
      } catch (error) {
        logger.warn('mcp.stdio.close_failed', { error: String(error) });
      }
      try {
        await gflow.close();
      } finally {
        logger.info('mcp.stdio.closed');
        guard.restore();
        resolveClosed();
      }
    })();
    return closing;
  };
  const onEnd = (): void => void close();
  const onSignal = (): void => void close();
  process.stdin.once('end', onEnd);
  if (options.handleSignals) {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }
  return { close, closed };
}
