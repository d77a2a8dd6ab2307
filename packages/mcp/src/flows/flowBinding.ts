import type { McpServer } from '@modelcontextprotocol/server';
import type { GflowLike, GflowLogger } from '../gflowPort.js';
import type { FlowListChange, FlowRegistry } from './flowRegistry.js';
import {
  registerFlowPrompt,
  registerFlowResource,
  registerFlowTemplate,
  registerFlowTool,
  type RemovableHandle,
} from './registerFlowEntry.js';

interface Held {
  readonly signature: string;
  readonly handle: RemovableHandle;
}

/**
 * The flow entries registered on one server instance. `sync` brings a list
 * in line with the registry: an entry whose definition changed or that went
 * away is removed, a new or changed one registered. All of it happens in
 * one synchronous sweep, and the instance debounces list_changed, so a
 * client gets one notification per changed list and none for the others.
 */
export class FlowBinding {
  readonly #tools = new Map<string, Held>();
  readonly #prompts = new Map<string, Held>();
  readonly #resources = new Map<string, Held>();
  #wasConnected = false;
  #closed = false;

  constructor(
    readonly server: McpServer,
    private readonly gflow: GflowLike,
    private readonly registry: FlowRegistry,
    private readonly logger: GflowLogger,
  ) {
    const previous = server.server.onclose;
    server.server.onclose = () => {
      this.#closed = true;
      previous?.();
    };
  }

  /** A server that closed, or lost its connection, gets no more updates (evicted lazily). */
  get dead(): boolean {
    if (this.server.isConnected()) this.#wasConnected = true;
    return this.#closed || (this.#wasConnected && !this.server.isConnected());
  }

  sync(change: FlowListChange): void {
    if (change.tools) {
      this.#syncTable(
        this.#tools,
        this.registry
          .tools()
          .map((t) => [t.name, t.signature, () => registerFlowTool(this.server, this.gflow, t, this.logger)] as const),
      );
    }
    if (change.prompts) {
      this.#syncTable(
        this.#prompts,
        this.registry.prompts().map((p) => [p.name, p.signature, () => registerFlowPrompt(this.server, p)] as const),
      );
    }
    if (change.resources) {
      this.#syncTable(this.#resources, [
        ...this.registry
          .resources()
          .map((r) => [`uri:${r.uri}`, r.signature, () => registerFlowResource(this.server, r)] as const),
        ...this.registry
          .templates()
          .map((t) => [`template:${t.name}`, t.signature, () => registerFlowTemplate(this.server, t)] as const),
      ]);
    }
  }

  #syncTable(table: Map<string, Held>, wanted: ReadonlyArray<readonly [string, string, () => RemovableHandle]>): void {
    const byKey = new Map(wanted.map((entry) => [entry[0], entry] as const));
    for (const [key, held] of table) {
      if (byKey.get(key)?.[1] === held.signature) continue;
      table.delete(key);
      try {
        held.handle.remove();
      } catch (error) {
        this.logger.warn('mcp.flows.deregister_failed', { entry: key, error: String(error) });
      }
    }
    for (const [key, signature, register] of wanted) {
      if (table.has(key)) continue;
      try {
        table.set(key, { signature, handle: register() });
      } catch (error) {
        this.logger.warn('mcp.flows.register_failed', { entry: key, error: String(error) });
      }
    }
  }
}
