import type { McpServer } from '@modelcontextprotocol/server';
import { WebStandardStreamableHTTPServerTransport, type Transport } from '@modelcontextprotocol/server';

interface Session {
  readonly server: McpServer;
  readonly transport: Transport;
}

interface Tracked extends Session {
  /** When the session last got a request (ms). */
  lastSeen: number;
}

/** How long a sessionful session may go without a request, and how many there may be at once. */
export interface LegacySessionLimits {
  /** Closed after this long without a request (GFLOW_CLI_MCP_SESSION_IDLE_SECONDS; default 600 s). */
  readonly idleMs: number;
  /** At most this many; a new one beyond closes the session idle longest (GFLOW_CLI_MCP_MAX_SESSIONS; default 256). */
  readonly maxSessions: number;
  /** Told when a session is closed for being idle or to make room. */
  readonly onExpire?: (id: string, why: 'idle' | 'capacity') => void;
}

export const DEFAULT_LEGACY_SESSION_LIMITS: LegacySessionLimits = { idleMs: 600_000, maxSessions: 256 };

/**
 * The live legacy (2025-era) sessions: sessionful Streamable HTTP at /mcp and
 * the deprecated SSE sessions. Each holds one server instance, so the daemon
 * can push list_changed to them and close them on shutdown.
 *
 * Each also holds memory for as long as it lives, and a client that goes away without its
 * DELETE (a crash, a closed laptop) would leave its session forever: issue 40 measured the
 * daemon's RSS at 3.4× its start after a 64-client soak. So a session is closed once it has had
 * no request for `idleMs` (a sweep on an unref'd timer; its client gets 404 on the old id and
 * starts a new session, as the spec says), and the number of sessions is capped: a new one
 * beyond `maxSessions` closes the session idle longest.
 */
export class LegacySessions {
  readonly #sessions = new Map<string, Tracked>();
  readonly #limits: LegacySessionLimits;
  #sweeper: NodeJS.Timeout | undefined;

  constructor(limits: LegacySessionLimits = DEFAULT_LEGACY_SESSION_LIMITS) {
    this.#limits = limits;
  }

  get size(): number {
    return this.#sessions.size;
  }

  streamable(id: string): WebStandardStreamableHTTPServerTransport | undefined {
    const transport = this.get(id)?.transport;
    return transport instanceof WebStandardStreamableHTTPServerTransport ? transport : undefined;
  }

  /** The session, marked as just used (every request to it goes through here). */
  get(id: string): Session | undefined {
    const session = this.#sessions.get(id);
    if (session) session.lastSeen = Date.now();
    return session;
  }

  add(id: string, session: Session): void {
    while (this.#sessions.size >= this.#limits.maxSessions) {
      const oldest = this.#idlest();
      if (oldest === undefined) break;
      this.#expire(oldest, 'capacity');
    }
    this.#sessions.set(id, { ...session, lastSeen: Date.now() });
    this.#sweeper ??= setInterval(() => this.sweep(), Math.max(50, Math.min(this.#limits.idleMs / 2, 60_000)));
    this.#sweeper.unref();
  }

  delete(id: string): void {
    this.#sessions.delete(id);
    if (this.#sessions.size === 0) this.#stopSweeping();
  }

  /** Closes every session that has had no request for the idle period. */
  sweep(now = Date.now()): void {
    for (const [id, session] of [...this.#sessions]) {
      if (now - session.lastSeen >= this.#limits.idleMs) this.#expire(id, 'idle');
    }
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
    this.#stopSweeping();
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled(sessions.map(async ({ server }) => server.close()));
  }

  #idlest(): string | undefined {
    let found: [string, number] | undefined;
    for (const [id, { lastSeen }] of this.#sessions) if (!found || lastSeen < found[1]) found = [id, lastSeen];
    return found?.[0];
  }

  #expire(id: string, why: 'idle' | 'capacity'): void {
    const session = this.#sessions.get(id);
    if (!session) return;
    this.delete(id);
    this.#limits.onExpire?.(id, why);
    // Closing the instance closes its transport: an open GET stream ends, the id answers 404.
    void session.server.close().catch(() => undefined);
  }

  #stopSweeping(): void {
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
  }
}
