import path from 'node:path';
import { type Operation } from '@gflow/core';
import { loadedOperations } from '@gflow/core/surfaces';
import type { GflowLike, GflowLogger } from '../gflowPort.js';
import { BUILTIN_PROMPT_NAMES } from '../prompts/registerPrompts.js';
import {
  BUILTIN_RESOURCE_URIS,
  BUILTIN_TEMPLATE_NAMES,
  BUILTIN_TEMPLATE_URIS,
} from '../resources/registerResources.js';
import type { CompileEnvironment } from './compileFlow.js';
import type { FlowProblem } from './flowProblem.js';
import { FlowRegistry } from './flowRegistry.js';
import { readMcpServerConfig } from './mcpServerConfig.js';
import type { ReservedNames } from './nameClash.js';

/** How a serving entry loads declarative flows (`gflow mcp run --flows DIR`, `gflow serve --flows DIR`). */
export interface FlowsOptions {
  /** Extra flows directories, after `<home>/flows` (which is always read unless `includeHome` is false). */
  readonly dirs?: readonly string[];
  readonly includeHome?: boolean;
  /** Watch the directories and hot-reload (default true). */
  readonly watch?: boolean;
  /** Scheme of generated resource URIs; default: config.toml [mcp_server] resource_uri_scheme, else gflow. */
  readonly resourceUriScheme?: string;
}

const findOperation = (operations: readonly Operation[], name: string): Operation | undefined =>
  operations.find((op) => op.name === name || op.mcpName === name);

function environmentOf(operations: readonly Operation[], noSpend: boolean, uriScheme: string): CompileEnvironment {
  return {
    operation: (name) => findOperation(operations, name),
    disabledByNoSpend: (name) => noSpend && findOperation(loadedOperations(), name)?.kind === 'spend',
    uriScheme,
  };
}

function reservedOf(operations: readonly Operation[]): ReservedNames {
  return {
    tools: new Set([...operations, ...loadedOperations()].map((op) => op.mcpName)),
    toolPrefix: 'gflow_',
    prompts: new Set(BUILTIN_PROMPT_NAMES),
    resourceUris: new Set(BUILTIN_RESOURCE_URIS),
    templateNames: new Set(BUILTIN_TEMPLATE_NAMES),
    templateUris: new Set(BUILTIN_TEMPLATE_URIS),
  };
}

function dirsOf(gflow: Pick<GflowLike, 'layout'>, options: FlowsOptions): string[] {
  const dirs = [...(options.includeHome === false ? [] : [gflow.layout.flowsDir]), ...(options.dirs ?? [])].map((dir) =>
    path.resolve(dir),
  );
  return [...new Set(dirs)];
}

/**
 * Opens the process's flow registry: reads config.toml `[mcp_server]`
 * (`enabled = false` → undefined: no flows), loads `<home>/flows` plus the
 * given directories, and starts watching them. Problems are logged; the
 * entries that loaded are live.
 */
export function openFlowRegistry(
  gflow: GflowLike,
  options: FlowsOptions = {},
  logger: GflowLogger = gflow.logger,
): FlowRegistry | undefined {
  const config = readMcpServerConfig(gflow.layout.configToml);
  if (!config.enabled) {
    logger.info('mcp.flows.disabled', { detail: 'config.toml [mcp_server] enabled = false' });
    return undefined;
  }
  const operations = gflow.operations();
  const registry = new FlowRegistry({
    dirs: dirsOf(gflow, options),
    environment: environmentOf(
      operations,
      gflow.settings.noSpend === true,
      options.resourceUriScheme ?? config.resourceUriScheme,
    ),
    reserved: reservedOf(operations),
    logger,
  });
  registry.reload();
  if (options.watch !== false) registry.watch();
  return registry;
}

/**
 * Loads flows directories once and returns what is wrong with them (file,
 * 1-based line, reason, severity) — for `gflow doctor`. With a runtime, the
 * operations are the ones this server would offer (no-spend applies);
 * without, every core operation counts.
 */
export function flowLoadReport(dirs: readonly string[], gflow?: GflowLike): FlowProblem[] {
  const silent: GflowLogger = { debug() {}, info() {}, warn() {}, error() {} } as unknown as GflowLogger;
  const operations = gflow ? gflow.operations() : [...loadedOperations()];
  const registry = new FlowRegistry({
    dirs: dirs.map((dir) => path.resolve(dir)),
    environment: environmentOf(
      operations,
      gflow?.settings.noSpend === true,
      gflow ? readMcpServerConfig(gflow.layout.configToml).resourceUriScheme : 'gflow',
    ),
    reserved: reservedOf(operations),
    logger: silent,
  });
  registry.reload();
  return registry.problems();
}
