import type { CliLeaf } from './cliTree.js';
import {
  CLI_TO_MCP,
  DEFAULT_OPTION_EXEMPT,
  LEAF_OPTION_RENAMES,
  MCP_EXEMPT,
  MCP_ONLY,
  OPTION_EXEMPT,
  OPTION_RENAMES,
} from './structure.js';

/** A tool as tools/list advertises it. */
export interface ListedTool {
  readonly name: string;
  readonly inputSchema: { readonly properties?: Readonly<Record<string, unknown>> };
}

/** The mapping tables (structure.ts by default; tests pass altered copies to prove the checks bite). */
export interface StructureData {
  readonly CLI_TO_MCP: Readonly<Record<string, string>>;
  readonly MCP_EXEMPT: Readonly<Record<string, string>>;
  readonly MCP_ONLY: Readonly<Record<string, string>>;
  readonly OPTION_RENAMES: Readonly<Record<string, string>>;
  readonly LEAF_OPTION_RENAMES: Readonly<Record<string, string>>;
  readonly DEFAULT_OPTION_EXEMPT: Readonly<Record<string, string>>;
  readonly OPTION_EXEMPT: Readonly<Record<string, string>>;
}

export const STRUCTURE: StructureData = {
  CLI_TO_MCP,
  MCP_EXEMPT,
  MCP_ONLY,
  OPTION_RENAMES,
  LEAF_OPTION_RENAMES,
  DEFAULT_OPTION_EXEMPT,
  OPTION_EXEMPT,
};

/** operation name → MCP tool name, for the "declared operation matches the mapped tool" check. */
export type OperationTools = Readonly<Record<string, string>>;

const hasReason = (reason: string | undefined): boolean => typeof reason === 'string' && reason.trim().length >= 10;

/** Command-level findings: every command mapped or exempt (not both), no stale entry, every tool accounted for. */
export function commandFindings(
  leaves: readonly CliLeaf[],
  tools: readonly ListedTool[],
  operationTools: OperationTools,
  data: StructureData = STRUCTURE,
): string[] {
  const findings: string[] = [];
  const paths = new Set(leaves.map((l) => l.path));
  const registered = new Set(tools.map((t) => t.name));
  for (const leaf of leaves) {
    const mapped = Object.hasOwn(data.CLI_TO_MCP, leaf.path);
    const exempt = Object.hasOwn(data.MCP_EXEMPT, leaf.path);
    if (mapped && exempt) findings.push(`'gflow ${leaf.path}' is both mapped and exempt`);
    if (!mapped && !exempt)
      findings.push(`'gflow ${leaf.path}' is neither mapped to an MCP tool nor exempt with a reason`);
    const declared = leaf.spec.operation ? operationTools[leaf.spec.operation] : undefined;
    const tool = data.CLI_TO_MCP[leaf.path];
    if (mapped && declared && tool !== declared)
      findings.push(`'gflow ${leaf.path}' runs ${leaf.spec.operation} (${declared}) but is mapped to ${tool}`);
  }
  for (const [path, tool] of Object.entries(data.CLI_TO_MCP)) {
    if (!paths.has(path)) findings.push(`stale CLI_TO_MCP entry: 'gflow ${path}' is not a command`);
    if (!registered.has(tool))
      findings.push(`CLI_TO_MCP maps 'gflow ${path}' to ${tool}, which the MCP server does not register`);
  }
  for (const [path, reason] of Object.entries(data.MCP_EXEMPT)) {
    if (!paths.has(path)) findings.push(`stale MCP_EXEMPT entry: 'gflow ${path}' is not a command`);
    if (!hasReason(reason)) findings.push(`MCP_EXEMPT['${path}'] needs a reason`);
  }
  const mappedTools = new Set(Object.values(data.CLI_TO_MCP));
  for (const name of registered) {
    const only = Object.hasOwn(data.MCP_ONLY, name);
    if (mappedTools.has(name) && only) findings.push(`${name} is mapped from a command and listed in MCP_ONLY`);
    if (!mappedTools.has(name) && !only)
      findings.push(`${name} is registered but no command maps to it and MCP_ONLY gives no reason`);
  }
  for (const [name, reason] of Object.entries(data.MCP_ONLY)) {
    if (!registered.has(name)) findings.push(`stale MCP_ONLY entry: ${name} is not registered`);
    if (!hasReason(reason)) findings.push(`MCP_ONLY['${name}'] needs a reason`);
  }
  return findings;
}

/**
 * Option-level findings: each flag and positional of a mapped command is a
 * property of its tool's input schema (directly, or through a declared
 * rename), or exempt with a reason. Per-command renames and exemptions that
 * name no parameter, or that a direct match makes unnecessary, are stale.
 */
export function optionFindings(
  leaves: readonly CliLeaf[],
  tools: readonly ListedTool[],
  data: StructureData = STRUCTURE,
): string[] {
  const findings: string[] = [];
  const byName = new Map(tools.map((t) => [t.name, t]));
  const used = new Set<string>();
  for (const leaf of leaves) {
    const toolName = data.CLI_TO_MCP[leaf.path];
    const tool = toolName ? byName.get(toolName) : undefined;
    if (!tool) continue;
    const properties = new Set(Object.keys(tool.inputSchema.properties ?? {}));
    const keys = [...leaf.positionals.map((p) => p.key), ...leaf.flags.map((f) => f.key)];
    for (const key of keys) {
      const entry = `${leaf.path}:${key}`;
      if (properties.has(key)) continue;
      const rename = data.LEAF_OPTION_RENAMES[entry] ?? data.OPTION_RENAMES[key];
      if (Object.hasOwn(data.LEAF_OPTION_RENAMES, entry)) used.add(`rename:${entry}`);
      if (rename !== undefined && properties.has(rename)) continue;
      if (rename !== undefined && Object.hasOwn(data.LEAF_OPTION_RENAMES, entry)) {
        findings.push(`LEAF_OPTION_RENAMES['${entry}'] names ${rename}, which ${tool.name} does not take`);
        continue;
      }
      if (Object.hasOwn(data.OPTION_EXEMPT, entry)) {
        used.add(`exempt:${entry}`);
        if (!hasReason(data.OPTION_EXEMPT[entry])) findings.push(`OPTION_EXEMPT['${entry}'] needs a reason`);
        continue;
      }
      if (Object.hasOwn(data.DEFAULT_OPTION_EXEMPT, key)) continue;
      findings.push(
        `'gflow ${leaf.path}' parameter ${key} is not a parameter of ${tool.name} (after renames) and is not exempt`,
      );
    }
  }
  for (const entry of Object.keys(data.LEAF_OPTION_RENAMES)) {
    if (!used.has(`rename:${entry}`))
      findings.push(
        `stale LEAF_OPTION_RENAMES entry '${entry}': no mapped command has that parameter, or it matches its tool directly`,
      );
  }
  for (const entry of Object.keys(data.OPTION_EXEMPT)) {
    if (!used.has(`exempt:${entry}`))
      findings.push(
        `stale OPTION_EXEMPT entry '${entry}': no mapped command has that parameter, or it matches its tool`,
      );
  }
  return findings;
}
