import type { McpServer } from '@modelcontextprotocol/server';
import { WebStandardStreamableHTTPServerTransport, type Transport } from '@modelcontextprotocol/server';

interface Session {
  readonly server: McpServer;
  readonly transport: Transport;
}

/**
 * The live legacy (2025-era) sessions: sessionful Streamable HTTP at /mcp and
 * the deprecated SSE sessions. Each holds one server instance, so the daemon
 * can push list_changed to them and close them on shutdown.
 */
export class LegacySessions {
  readonly #sessions = new Map<string, Session>();

  get size(): number {
    return this.#sessions.size;
  }

  streamable(id: string): WebStandardStreamableHTTPServerTransport | undefined {
    const transport = this.#sessions.get(id)?.transport;
    return transport instanceof WebStandardStreamableHTTPServerTransport ? transport : undefined;
  }

  get(id: string): Session | undefined {
    return this.#sessions.get(id);
  }

  add(id: string, session: Session): void {
    this.#sessions.set(id, session);
  }

  delete(id: string): void {
    this.#sessions.delete(id);
  }

  /** Sends notifications/{kind}/list_changed to every session. */
  notify(kind: 'tools' | 'prompts' | 'resources'): void {
    for (const { server } of this.#sessions.values()) {
      if (kind === 'tools') server.sendToolListChanged();
      else if (kind === 'prompts') server.sendPromptListChanged();
      else server.sendResourceListChanged();
    }
  }

  async closeAll(): Promise<void> {
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled(sessions.map(async ({ server }) => server.close()));
  }
}
