import { type Requirement, SURFACE_NAMES } from './requirements.js';
import { MCP_ONLY } from './structure.js';
import type { Registration } from './verifies.js';

/** Manifest sanity: unique ids, a quoted passage, known surfaces, gaps inside the requirement's surfaces. */
export function manifestFindings(requirements: readonly Requirement[]): string[] {
  const findings: string[] = [];
  const ids = new Set<string>();
  for (const r of requirements) {
    if (ids.has(r.id)) findings.push(`${r.id}: declared twice`);
    ids.add(r.id);
    if (!/^[a-z0-9-]+\.[a-z0-9-]+$/.test(r.id)) findings.push(`${r.id}: ids are <area>.<behaviour> in kebab-case`);
    if (r.seed.trim().length < 20) findings.push(`${r.id}: quote the passage the requirement comes from`);
    if (!r.source.trim()) findings.push(`${r.id}: name the source of the passage`);
    if (!r.surfaces.length) findings.push(`${r.id}: applies to no surface`);
    if (new Set(r.surfaces).size !== r.surfaces.length) findings.push(`${r.id}: a surface is listed twice`);
    for (const s of r.surfaces)
      if (!(SURFACE_NAMES as readonly string[]).includes(s)) findings.push(`${r.id}: unknown surface ${s}`);
    if (r.knownGap) {
      if (r.knownGap.reason.trim().length < 20) findings.push(`${r.id}: a known gap needs its reason`);
      if (!r.knownGap.surfaces.length) findings.push(`${r.id}: a known gap on no surface`);
      for (const s of r.knownGap.surfaces)
        if (!r.surfaces.includes(s))
          findings.push(`${r.id}: known gap on ${s}, which the requirement does not apply to`);
    }
  }
  return findings;
}

/**
 * Coverage: every requirement is verified (a test registered) on each of its
 * surfaces, known-gap surfaces as expected failures and only those; nothing
 * is registered for a surface the requirement does not list.
 */
export function coverageFindings(
  requirements: readonly Requirement[],
  registrations: readonly Registration[],
): string[] {
  const findings: string[] = [];
  for (const r of requirements) {
    const mine = registrations.filter((g) => g.id === r.id);
    if (!mine.length) {
      findings.push(`${r.id}: verified nowhere (no verifies('${r.id}', …) in test/requirements)`);
      continue;
    }
    const gaps = new Set(r.knownGap?.surfaces ?? []);
    for (const surface of r.surfaces) {
      const tests = mine.filter((g) => g.surface === surface);
      if (!tests.length) findings.push(`${r.id}: not verified on ${surface}`);
      for (const t of tests) {
        if (t.expectedFailure !== gaps.has(surface))
          findings.push(
            `${r.id} [${surface}] in ${t.suite}: ${gaps.has(surface) ? 'a known gap registered as a plain test' : 'registered as a known gap but the manifest lists none'}`,
          );
      }
    }
    for (const g of mine)
      if (!r.surfaces.includes(g.surface)) findings.push(`${r.id}: registered on ${g.surface}, which it does not list`);
  }
  return findings;
}

/** Every `GAP` reason in structure.ts MCP_ONLY names a requirement whose known gap covers the CLI. */
export function gapCrossReferenceFindings(
  requirements: readonly Requirement[],
  mcpOnly: Readonly<Record<string, string>> = MCP_ONLY,
): string[] {
  const findings: string[] = [];
  for (const [tool, reason] of Object.entries(mcpOnly)) {
    if (!reason.startsWith('GAP')) continue;
    const named = requirements.filter((r) => reason.includes(r.id));
    if (!named.some((r) => r.knownGap?.surfaces.includes('cli')))
      findings.push(`MCP_ONLY['${tool}'] is a GAP but names no requirement with a known gap on cli`);
  }
  return findings;
}
