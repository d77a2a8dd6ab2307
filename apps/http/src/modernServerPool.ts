import type { JSONRPCMessage, McpServer, Transport } from '@modelcontextprotocol/server';

/** Idle instances kept for reuse; more concurrent requests than this build extra instances that are then dropped. */
export const DEFAULT_POOL_SIZE = 32;

export interface ModernServerPool {
  /** An idle instance built for the current generation, or a new one. It comes back by itself once its exchange closed cleanly. */
  acquire(): McpServer;
  /** Drops every idle instance; instances still serving are dropped when they finish (flows reloaded, lists changed). */
  invalidate(): void;
  /** Idle instances ready for reuse (tests, diagnostics). */
  readonly idle: number;
  /** Instances built so far (tests, diagnostics). */
  readonly built: number;
}

interface Pooled {
  readonly server: McpServer;
  readonly generation: number;
  /** The exchange in progress answered its request (its handler finished) before the transport closed. */
  answered: boolean;
}

/**
 * Whether a message the server sends is a response (the answer to its exchange's request), not a
 * request or notification of its own. Structural: the server built the message, so its shape is not
 * in doubt, and the SDK's `isJSONRPCResponse` would parse the whole result with zod on every call
 * (a few % of a call's CPU in the daemon's profile, apps/http/bench/RESULTS.md).
 */
export function isOwnResponse(message: JSONRPCMessage): boolean {
  return !('method' in message) && ('result' in message || 'error' in message);
}

/** The connection-scoped client identity the SDK seeds from each request's envelope (only when present). */
interface SeededIdentity {
  _clientCapabilities?: unknown;
  _clientVersion?: unknown;
}

/**
 * Reusable server instances for the modern (2026-07-28) leg of `createMcpHandler`.
 *
 * The SDK calls its factory once per HTTP request and connects the product to
 * a single-exchange transport; building gflow's instance (every tool, prompt,
 * resource, the flows, their JSON Schemas) each time dominated the cost of a
 * call. The handler only requires that the product is not connected
 * (`assertNotServing`), and a `Protocol` resets its per-connection state when
 * its transport closes (response handlers, timeouts, abort controllers,
 * debounced notifications; the negotiated version is set again by the next
 * exchange). So an instance goes back to the pool when its exchange's
 * transport closes, if and only if:
 * - the exchange answered its request first: a handler still running after a
 *   client disconnect keeps its instance out of the pool for good, so nothing
 *   it does later can reach another exchange;
 * - it belongs to the current generation: `invalidate()` (a flow reload, a
 *   list change) retires every instance built before it.
 * The client identity the SDK seeds from the envelope is cleared on return,
 * so a request without `clientInfo` never sees the previous caller's.
 * Instances the handler closes without connecting them (subscriptions/listen,
 * early rejections) never come back and are collected.
 */
export function createModernServerPool(
  build: () => McpServer,
  options: { readonly size?: number } = {},
): ModernServerPool {
  const size = options.size ?? DEFAULT_POOL_SIZE;
  const idle: Pooled[] = [];
  let generation = 0;
  let built = 0;

  const release = (entry: Pooled): void => {
    if (!entry.answered || entry.generation !== generation || idle.length >= size || entry.server.isConnected()) return;
    const identity = entry.server.server as unknown as SeededIdentity;
    identity._clientCapabilities = undefined;
    identity._clientVersion = undefined;
    idle.push(entry);
  };

  const create = (): Pooled => {
    const server = build();
    built += 1;
    const entry: Pooled = { server, generation, answered: false };
    const connect = server.connect.bind(server);
    server.connect = async (transport: Transport) => {
      entry.answered = false;
      const send = transport.send.bind(transport);
      transport.send = async (message, sendOptions) => {
        if (isOwnResponse(message)) entry.answered = true;
        await send(message, sendOptions);
      };
      await connect(transport);
    };
    // Chained after whatever the build installed (flow bindings); the handler restores this hook after each exchange.
    const previous = server.server.onclose;
    server.server.onclose = () => {
      previous?.();
      release(entry);
    };
    return entry;
  };

  return {
    acquire: () => (idle.pop() ?? create()).server,
    invalidate: () => {
      generation += 1;
      idle.length = 0;
    },
    get idle() {
      return idle.length;
    },
    get built() {
      return built;
    },
  };
}
