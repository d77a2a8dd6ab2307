import type { CompiledFlow } from './compiledFlow.js';
import type { FlowProblem } from './flowProblem.js';

/** Names the built-in surfaces own; a flow entry may not take them. */
export interface ReservedNames {
  readonly tools: ReadonlySet<string>;
  /** Tool names with this prefix are reserved for gflow's own tools. */
  readonly toolPrefix: string;
  readonly prompts: ReadonlySet<string>;
  readonly resourceUris: ReadonlySet<string>;
  readonly templateNames: ReadonlySet<string>;
  readonly templateUris: ReadonlySet<string>;
}

interface Claim {
  readonly table: string;
  readonly key: string;
  readonly line: number;
  readonly what: string;
}

function claimsOf(flow: CompiledFlow): Claim[] {
  return [
    { table: 'flow', key: flow.name, line: 1, what: `flow name "${flow.name}"` },
    ...flow.tools.map((t) => ({ table: 'tool', key: t.name, line: t.line, what: `tool "${t.name}"` })),
    ...flow.prompts.map((p) => ({ table: 'prompt', key: p.name, line: p.line, what: `prompt "${p.name}"` })),
    ...flow.resources.map((r) => ({ table: 'resource', key: r.uri, line: r.line, what: `resource URI ${r.uri}` })),
    ...flow.templates.map((t) => ({
      table: 'template-name',
      key: t.name,
      line: t.line,
      what: `resource template "${t.name}"`,
    })),
    ...flow.templates.map((t) => ({
      table: 'template-uri',
      key: t.uriTemplate,
      line: t.line,
      what: `uri_template ${t.uriTemplate}`,
    })),
  ];
}

function reservedFor(claim: Claim, reserved: ReservedNames): boolean {
  switch (claim.table) {
    case 'tool':
      return reserved.tools.has(claim.key) || claim.key.startsWith(reserved.toolPrefix);
    case 'prompt':
      return reserved.prompts.has(claim.key);
    case 'resource':
      return reserved.resourceUris.has(claim.key);
    case 'template-name':
      return reserved.templateNames.has(claim.key);
    case 'template-uri':
      return reserved.templateUris.has(claim.key);
    default:
      return false;
  }
}

/**
 * The first name of a candidate flow that is already taken — by a built-in,
 * by another live flow, or twice inside the flow itself — as a problem with
 * the entry's line; undefined when every name is free.
 */
export function findClash(
  candidate: CompiledFlow,
  others: readonly CompiledFlow[],
  reserved: ReservedNames,
): FlowProblem | undefined {
  const taken = new Map<string, string>();
  for (const other of others)
    for (const claim of claimsOf(other)) taken.set(`${claim.table}\0${claim.key}`, other.file);
  const problem = (claim: Claim, reason: string): FlowProblem => ({
    file: candidate.file,
    line: claim.line,
    reason,
    severity: 'error',
  });
  for (const claim of claimsOf(candidate)) {
    if (reservedFor(claim, reserved)) return problem(claim, `name clash: ${claim.what} is a built-in gflow name`);
    const key = `${claim.table}\0${claim.key}`;
    const owner = taken.get(key);
    if (owner === candidate.file) return problem(claim, `name clash: ${claim.what} is declared twice in this flow`);
    if (owner !== undefined) return problem(claim, `name clash: ${claim.what} is already declared in ${owner}`);
    taken.set(key, candidate.file);
  }
  return undefined;
}
