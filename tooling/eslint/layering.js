/**
 * The dependency table of docs/ARCHITECTURE.md §1, as data. A package may import
 * only the @gflow packages listed for it. The reason is given in every lint
 * message so a reader learns why, not just that.
 */
export const LAYERS = {
  '@gflow/errors': { may: [], why: 'errors is the bottom layer: every package imports it, so it imports nothing of ours' },
  '@gflow/flow-facts': { may: ['@gflow/errors'], why: 'the facts about Flow (models, menu labels, tokens, keys, magic bytes, the upload cap, profile names and markers) are pure data and rules; everything that uses them sits above, so they import nothing but the error taxonomy' },
  '@gflow/catalog': { may: ['@gflow/errors', '@gflow/flow-facts'], why: 'lower packages take paths and options as arguments; only core knows settings and the home layout' },
  '@gflow/lease': { may: ['@gflow/errors', '@gflow/flow-facts'], why: 'lower packages take paths and options as arguments; only core knows settings and the home layout' },
  '@gflow/driver': { may: ['@gflow/errors', '@gflow/flow-facts'], why: 'the driver speaks to Flow only; it never imports the simulator, so it cannot grow simulator-only branches' },
  '@gflow/flow-sim': { may: [], why: 'the simulator stands in for Google\'s servers and must not share code with the driver it tests' },
  '@gflow/core': { may: ['@gflow/errors', '@gflow/flow-facts', '@gflow/catalog', '@gflow/lease', '@gflow/driver'], why: 'core holds behaviour once, for every surface; adapters sit above it' },
  '@gflow/mcp': { may: ['@gflow/core', '@gflow/errors'], why: 'adapters are thin: they call core operations, never the catalog, lease or driver directly' },
  '@gflow/cli': { may: ['@gflow/core', '@gflow/errors'], why: 'adapters are thin: they call core operations, never the catalog, lease or driver directly' },
  '@gflow/http': { may: ['@gflow/mcp', '@gflow/cli', '@gflow/core', '@gflow/errors', '@gflow/flow-sim'], why: 'apps compose adapters; the simulator only for --sandbox' },
  '@gflow/app': { may: ['@gflow/mcp', '@gflow/cli', '@gflow/core', '@gflow/errors', '@gflow/flow-sim', '@gflow/http'], why: 'apps compose adapters; the simulator only for --sandbox' },
  '@gflow/parity': { may: '*', why: 'parity walks every surface' },
  '@gflow/tests-e2e': { may: '*', why: 'journeys cross every surface' },
  '@gflow/tooling': { may: [], why: 'tooling serves the build, not the product' },
};

/** Returns the package an import specifier names, or undefined when not ours. */
export function gflowPackageOf(specifier) {
  const m = /^(@gflow\/[^/]+)/.exec(specifier);
  return m ? m[1] : undefined;
}

/** Checks one import; returns a message when the layering forbids it. */
export function layeringViolation(fromPackage, specifier) {
  const target = gflowPackageOf(specifier);
  if (!target || target === fromPackage) return undefined;
  const rule = LAYERS[fromPackage];
  if (!rule) return `${fromPackage} is not in the layering table (tooling/eslint/layering.js); add it with its allowed imports`;
  if (rule.may === '*' || rule.may.includes(target)) return undefined;
  const allowed = rule.may.length ? rule.may.join(', ') : 'no @gflow package';
  return `${fromPackage} may not import ${target} (allowed: ${allowed}). Why: ${rule.why}. See docs/ARCHITECTURE.md §1.`;
}
