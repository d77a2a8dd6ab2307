import type { McpServer } from '@modelcontextprotocol/server';
import type { GflowLike, GflowLogger } from '../gflowPort.js';
import { FlowBinding } from './flowBinding.js';
import type { FlowListChange, FlowRegistry } from './flowRegistry.js';

const ALL_LISTS: FlowListChange = { tools: true, prompts: true, resources: true };

/** Keeps each live binding alive exactly as long as its server. */
const bindingOf = new WeakMap<McpServer, FlowBinding>();
/** The live bindings of a registry, held weakly: a discarded instance is collected and evicted. */
const liveBindings = new WeakMap<FlowRegistry, Set<WeakRef<FlowBinding>>>();

/**
 * Registers the registry's current flow entries on a server instance. With
 * `live`, the instance also follows later reloads (stdio connections,
 * sessionful legacy HTTP): its entries are swapped in place and its client
 * gets list_changed for the changed lists. Per-request instances (modern
 * HTTP) pass `live: false`; their clients hear of changes through the
 * handler's `notify`.
 */
export function registerFlows(
  server: McpServer,
  gflow: GflowLike,
  registry: FlowRegistry,
  logger: GflowLogger,
  live: boolean,
): void {
  const binding = new FlowBinding(server, gflow, registry, logger);
  binding.sync(ALL_LISTS);
  if (!live) return;
  bindingOf.set(server, binding);
  let bindings = liveBindings.get(registry);
  if (!bindings) {
    const set = new Set<WeakRef<FlowBinding>>();
    bindings = set;
    liveBindings.set(registry, set);
    registry.onChange((change) => publish(set, change, logger));
  }
  bindings.add(new WeakRef(binding));
}

/** The number of live instances following a registry (tests, diagnostics). */
export function liveFlowInstanceCount(registry: FlowRegistry): number {
  let count = 0;
  for (const ref of liveBindings.get(registry) ?? []) {
    const binding = ref.deref();
    if (binding && !binding.dead) count += 1;
  }
  return count;
}

/**
 * Applies a change to every live instance. Sends are non-blocking (the SDK
 * queues the debounced notification and never awaits the client), so a slow
 * client cannot stall a reload; closed or collected instances are dropped here.
 */
function publish(bindings: Set<WeakRef<FlowBinding>>, change: FlowListChange, logger: GflowLogger): void {
  for (const ref of [...bindings]) {
    const binding = ref.deref();
    if (!binding || binding.dead) {
      bindings.delete(ref);
      continue;
    }
    try {
      binding.sync(change);
    } catch (error) {
      bindings.delete(ref);
      logger.warn('mcp.flows.instance_evicted', { error: String(error) });
    }
  }
}
