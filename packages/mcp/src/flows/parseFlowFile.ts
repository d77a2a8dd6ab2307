import path from 'node:path';
import { isNode, type Document, type LineCounter } from 'yaml';
import { parseBoundedYaml } from '@gflow/core/yaml';
import type { z } from 'zod';
import {
  ENTRY_KINDS,
  ENTRY_SCHEMAS,
  FLOW_NAME,
  flowHeader,
  type EntryKind,
  type PromptEntry,
  type ResourceEntry,
  type ToolEntry,
} from './flowSchema.js';
import type { FlowProblem } from './flowProblem.js';

export type YamlPath = ReadonlyArray<string | number>;

export type ParsedEntry =
  | { readonly kind: 'mcp_tool'; readonly def: ToolEntry; readonly path: YamlPath }
  | { readonly kind: 'mcp_resource'; readonly def: ResourceEntry; readonly path: YamlPath }
  | { readonly kind: 'mcp_prompt'; readonly def: PromptEntry; readonly path: YamlPath };

export interface ParsedFlow {
  readonly file: string;
  readonly name: string;
  readonly entries: readonly ParsedEntry[];
  /** The 1-based line of a YAML path (the nearest existing node). */
  lineOf(path: YamlPath): number;
}

/**
 * Parses one flow file: YAML within bounds (core's files/boundedYaml.ts: size, depth, aliases, tags,
 * prototype keys; with line positions), the top-level shape, then every entry against its schema. Any problem rejects the file as a whole;
 * each is reported with the line of the offending node.
 */
export function parseFlowFile(file: string, source: string): { flow?: ParsedFlow; problems: FlowProblem[] } {
  const problem = (line: number, reason: string): FlowProblem => ({ file, line, reason, severity: 'error' });
  const yaml = parseBoundedYaml(source);
  if (!yaml.ok) return { problems: yaml.problems.map((p) => problem(p.line, p.reason)) };
  const { doc, lineCounter, root } = yaml;
  const lineOf = (at: YamlPath): number => lineOfPath(doc, lineCounter, at);
  const problems: FlowProblem[] = [];
  let flowName = path.basename(file).replace(/\.ya?ml$/i, '');
  let entries: unknown[];
  let base: YamlPath;
  if (Array.isArray(root)) {
    entries = root;
    base = [];
  } else if (root !== null && typeof root === 'object') {
    const header = flowHeader.safeParse(root);
    if (!header.success) return { problems: zodProblems(header.error, [], lineOf, file) };
    entries = header.data.entries;
    base = ['entries'];
    if (header.data.name) flowName = header.data.name;
  } else {
    return {
      problems: [
        problem(
          1,
          'a flow file holds a list of entries (- mcp_tool: …, - mcp_resource: …, - mcp_prompt: …) or a mapping with entries:',
        ),
      ],
    };
  }
  if (!FLOW_NAME.test(flowName))
    problems.push(
      problem(1, `flow name "${flowName}" must be 1–64 letters, digits, "_" or "-" (set name: or rename the file)`),
    );

  const parsed: ParsedEntry[] = [];
  entries.forEach((entry, index) => {
    const at = [...base, index];
    const keys = entry !== null && typeof entry === 'object' && !Array.isArray(entry) ? Object.keys(entry) : [];
    const kind = keys[0] as EntryKind | undefined;
    if (keys.length !== 1 || !kind || !ENTRY_KINDS.includes(kind)) {
      problems.push(
        problem(lineOf(at), `entry ${index + 1} must be a mapping with exactly one key: ${ENTRY_KINDS.join(', ')}`),
      );
      return;
    }
    const body = (entry as Record<string, unknown>)[kind];
    const result = ENTRY_SCHEMAS[kind].safeParse(body);
    if (!result.success) {
      problems.push(...zodProblems(result.error, [...at, kind], lineOf, file));
      return;
    }
    parsed.push({ kind, def: result.data, path: [...at, kind] } as ParsedEntry);
  });
  if (problems.length > 0) return { problems };
  return { flow: { file, name: flowName, entries: parsed, lineOf }, problems: [] };
}

function zodProblems(
  error: z.ZodError,
  prefix: YamlPath,
  lineOf: (at: YamlPath) => number,
  file: string,
): FlowProblem[] {
  return error.issues.slice(0, 10).map((issue) => {
    const at = [...prefix, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
    const where = at.join('.');
    return { file, line: lineOf(at), reason: `${where || 'file'}: ${issue.message}`, severity: 'error' as const };
  });
}

function lineOfPath(doc: Document, lineCounter: LineCounter, at: YamlPath): number {
  for (let depth = at.length; depth >= 0; depth -= 1) {
    const node: unknown = depth === 0 ? doc.contents : doc.getIn(at.slice(0, depth), true);
    // A missing key resolves to nothing: point at the nearest node that exists.
    if (isNode(node) && node.range) return lineCounter.linePos(node.range[0]).line;
  }
  return 1;
}
