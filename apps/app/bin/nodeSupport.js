// Which Node gflow runs on. The range is the package's own `engines.node`
// (one home for it; a test keeps every engines field in the workspace equal),
// read with a small matcher for the forms that field uses: `||` of
// space-separated comparators (`>=22.19.0`, `<25`, `^22.19.0`, `~24.1`, `24.x`).
// Plain JavaScript on purpose: the launcher runs it before anything else, on
// any Node, so an old Node gets one clear line instead of a native abort.
import { createRequire } from 'node:module';

// node:fs through require: its ESM face would read every lazy getter of fs (fs/promises, its
// streams and watchers), a few ms of every start (apps/app/bench/cliStart.bench.ts).
const { readFileSync } = createRequire(import.meta.url)('node:fs');

/** @param {string} version e.g. "24.21.0" or "v24.21.0" @returns {[number, number, number]} */
function parseVersion(version) {
  const parts = String(version).replace(/^v/, '').split('.');
  return [0, 1, 2].map((i) => {
    const n = Number.parseInt(parts[i] ?? '0', 10);
    return Number.isFinite(n) ? n : 0;
  });
}

/** @param {number[]} a @param {number[]} b */
function compare(a, b) {
  for (let i = 0; i < 3; i += 1) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/** @param {number[]} v @param {string} comparator */
function satisfiesOne(v, comparator) {
  const m = /^(>=|<=|>|<|=|\^|~)?v?(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?$/.exec(comparator);
  if (!m) throw new Error(`unsupported Node range comparator: ${comparator}`);
  const op = m[1] ?? '';
  const given = [m[2], m[3], m[4]].filter((p) => p !== undefined && p !== 'x' && p !== '*').length;
  const base = parseVersion(
    [m[2], m[3], m[4]].map((p) => (p === undefined || p === 'x' || p === '*' ? '0' : p)).join('.'),
  );
  const c = compare(v, base);
  if (op === '>=') return c >= 0;
  if (op === '>') return c > 0;
  if (op === '<=') return c <= 0;
  if (op === '<') return c < 0;
  if (op === '^') return c >= 0 && v[0] === base[0];
  if (op === '~' || given < 3) return c >= 0 && v[0] === base[0] && (given < 2 || v[1] === base[1]);
  return c === 0;
}

/**
 * Whether `version` satisfies `range` (`||` of space-separated comparators).
 * @param {string} version
 * @param {string} range
 */
export function satisfiesNodeRange(version, range) {
  const v = parseVersion(version);
  return range.split('||').some((alt) =>
    alt
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .every((comparator) => satisfiesOne(v, comparator)),
  );
}

/** The supported range: `engines.node` of @gflow/app's package.json. */
export function supportedNodeRange() {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  return String(pkg.engines.node);
}

/**
 * The running (or given) Node against the supported range.
 * @param {string} [version]
 * @param {string} [range]
 */
export function nodeSupport(version = process.versions.node, range = supportedNodeRange()) {
  return { version, range, supported: satisfiesNodeRange(version, range) };
}

/** The one line an unsupported Node gets. @param {{version: string, range: string}} support */
export function unsupportedNodeMessage(support) {
  return `gflow needs Node ${support.range} (this is Node ${support.version}); install Node 24 LTS or 22 LTS from https://nodejs.org and run gflow with it.`;
}
