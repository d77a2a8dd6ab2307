/**
 * The dependency table of docs/ARCHITECTURE.md §1, as data. A package may import
 * only the @gflow packages listed for it. The reason is given in every lint
 * message so a reader learns why, not just that.
 */
export const LAYERS = {
  '@gflow/errors': {
    may: [],
    why: 'errors is the bottom layer: every package imports it, so it imports nothing of ours',
  },
  '@gflow/flow-facts': {
    may: ['@gflow/errors'],
    why: 'the facts about Flow (models, menu labels, tokens, keys, magic bytes, the upload cap, profile names and markers) are pure data and rules; everything that uses them sits above, so they import nothing but the error taxonomy',
  },
  '@gflow/catalog': {
    may: ['@gflow/errors', '@gflow/flow-facts'],
    why: 'lower packages take paths and options as arguments; only core knows settings and the home layout',
  },
  '@gflow/lease': {
    may: ['@gflow/errors', '@gflow/flow-facts'],
    why: 'lower packages take paths and options as arguments; only core knows settings and the home layout',
  },
  '@gflow/fleet': {
    may: ['@gflow/errors', '@gflow/flow-facts', '@gflow/catalog'],
    why: "the fleet backend implements the catalog's queue port on PostgreSQL (and holds the fleet's shared tables); it takes URLs and options as arguments, and core, which knows settings, loads it only when a fleet is configured",
  },
  '@gflow/driver': {
    may: ['@gflow/errors', '@gflow/flow-facts'],
    why: 'the driver speaks to Flow only; it never imports the simulator, so it cannot grow simulator-only branches',
  },
  '@gflow/flow-sim': {
    may: [],
    why: "the simulator stands in for Google's servers and must not share code with the driver it tests",
  },
  '@gflow/core': {
    may: [
      '@gflow/errors',
      '@gflow/flow-facts',
      '@gflow/catalog',
      '@gflow/lease',
      '@gflow/driver',
      '@gflow/fleet',
      '@gflow/flow-sim',
    ],
    onlyIn: { '@gflow/flow-sim': 'src/sandbox/' },
    why: 'core holds behaviour once, for every surface; adapters sit above it. The simulator only behind the @gflow/core/sandbox entry (src/sandbox/), so an embedder that does not ask for the sandbox never loads it',
  },
  '@gflow/mcp': {
    may: ['@gflow/core', '@gflow/errors'],
    why: 'adapters are thin: they call core operations, never the catalog, lease or driver directly',
  },
  '@gflow/cli': {
    may: ['@gflow/core', '@gflow/errors'],
    why: 'adapters are thin: they call core operations, never the catalog, lease or driver directly',
  },
  '@gflow/http': {
    may: ['@gflow/mcp', '@gflow/cli', '@gflow/core', '@gflow/errors', '@gflow/flow-sim'],
    why: 'apps compose adapters; the simulator only for --sandbox',
  },
  '@gflow/app': {
    may: ['@gflow/mcp', '@gflow/cli', '@gflow/core', '@gflow/errors', '@gflow/flow-sim', '@gflow/http'],
    why: 'apps compose adapters; the simulator only for --sandbox',
  },
  '@gflow/parity': {
    may: '*',
    why: 'parity walks every surface; it is a test package, so its src/ may use the test kit',
  },
  '@gflow/tests-e2e': { may: '*', why: 'journeys cross every surface' },
  '@gflow/tooling': { may: [], why: 'tooling serves the build, not the product' },
  '@gflow/testkit': {
    may: ['@gflow/flow-sim', '@gflow/tooling'],
    testOnly: true,
    why: "the test kit (docs/TESTING.md) is test code: the tests of every package import it (a devDependency), product code never does (never a dependency); it drives the simulator and Chromium but never the driver, so the simulator's own contract tests stay independent of the code they check",
  },
};

/** Packages only tests may use: a devDependency of any package, a dependency of none. */
export const TEST_ONLY = Object.keys(LAYERS).filter((name) => LAYERS[name].testOnly === true);

/** Returns the package an import specifier names, or undefined when not ours. */
export function gflowPackageOf(specifier) {
  const m = /^(@gflow\/[^/]+)/.exec(specifier);
  return m ? m[1] : undefined;
}

/**
 * Checks one import; returns a message when the layering forbids it.
 * @param {string} fromPackage the importing package's name
 * @param {string} specifier what it imports
 * @param {string} [file] the importing file, relative to its package (for the `onlyIn` rules; a
 *   package.json's dependency list passes none)
 */
export function layeringViolation(fromPackage, specifier, file) {
  const target = gflowPackageOf(specifier);
  if (!target || target === fromPackage) return undefined;
  if (
    specifier.startsWith('@gflow/flow-sim/testing') &&
    fromPackage !== '@gflow/testkit' &&
    LAYERS[fromPackage]?.may !== '*'
  ) {
    return `${fromPackage} may import @gflow/flow-sim/testing only in its tests: it is the simulator's browser harness (playwright-core), test code; product code runs the simulator through @gflow/flow-sim. See docs/TESTING.md.`;
  }
  const rule = LAYERS[fromPackage];
  if (!rule)
    return `${fromPackage} is not in the layering table (tooling/eslint/layering.js); add it with its allowed imports`;
  const onlyIn = rule.onlyIn?.[target];
  if (onlyIn && file !== undefined && !file.split('\\').join('/').startsWith(onlyIn))
    return `${fromPackage} may import ${target} only in ${onlyIn}. Why: ${rule.why}. See docs/ARCHITECTURE.md §1.`;
  if (rule.may === '*' || rule.may.includes(target)) return undefined;
  if (LAYERS[target]?.testOnly)
    return `${fromPackage} may import ${target} only in its tests (*.test.ts, test/). Why: ${LAYERS[target].why}. See docs/TESTING.md.`;
  const allowed = rule.may.length ? rule.may.join(', ') : 'no @gflow package';
  return `${fromPackage} may not import ${target} (allowed: ${allowed}). Why: ${rule.why}. See docs/ARCHITECTURE.md §1.`;
}
