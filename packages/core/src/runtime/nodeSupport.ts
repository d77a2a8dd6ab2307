// Which Node the library runs on: the range is core's `engines.node` (one value for the workspace,
// tooling/test/nodeRuntime.test.js), restated here because a bundle (the gflow binary's) has no
// package.json beside the code (nodeSupport.test.ts holds the two equal), read with a small matcher
// for the forms that field uses (`||` of space-separated comparators: `>=22.19.0`, `<25`, `^22.19.0`, `~24.1`, `24.x`).
// Checked before anything native loads: better-sqlite3 13, the catalog's SQLite, crashes an older
// Node's process (a segfault, no exception to catch). The gflow binary's launcher makes the same
// check in plain JavaScript before it loads anything (apps/app/bin/nodeSupport.js); a test there
// holds the two to the same verdicts.
import { ConfigurationError } from '@gflow/errors';

type Version = readonly [number, number, number];

function parseVersion(version: string): Version {
  const parts = version.replace(/^v/, '').split('.');
  const at = (i: number): number => {
    const n = Number.parseInt(parts[i] ?? '0', 10);
    return Number.isFinite(n) ? n : 0;
  };
  return [at(0), at(1), at(2)];
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i += 1) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}

function satisfiesOne(v: Version, comparator: string): boolean {
  const m = /^(>=|<=|>|<|=|\^|~)?v?(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?$/.exec(comparator);
  if (!m) throw new Error(`unsupported Node range comparator: ${comparator}`);
  const op = m[1] ?? '';
  const parts = [m[2], m[3], m[4]];
  const wild = (p: string | undefined) => p === undefined || p === 'x' || p === '*';
  const given = parts.filter((p) => !wild(p)).length;
  const base = parseVersion(parts.map((p) => (wild(p) ? '0' : p)).join('.'));
  const c = compare(v, base);
  if (op === '>=') return c >= 0;
  if (op === '>') return c > 0;
  if (op === '<=') return c <= 0;
  if (op === '<') return c < 0;
  if (op === '^') return c >= 0 && v[0] === base[0];
  if (op === '~' || given < 3) return c >= 0 && v[0] === base[0] && (given < 2 || v[1] === base[1]);
  return c === 0;
}

/** Whether `version` satisfies `range` (`||` of space-separated comparators). */
export function satisfiesNodeRange(version: string, range: string): boolean {
  const v = parseVersion(version);
  return range.split('||').some((alt) =>
    alt
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .every((comparator) => satisfiesOne(v, comparator)),
  );
}

/** The Node range the library supports: `engines.node` of @gflow/core's package.json. */
export const SUPPORTED_NODE_RANGE = '^22.19.0 || >=24';

/**
 * Refuses an unsupported Node with a ConfigurationError (exit 11) before anything native loads:
 * on an older Node the catalog's SQLite addon would crash the whole process instead of throwing.
 */
export function assertSupportedNode(
  version: string = process.versions.node,
  range: string = SUPPORTED_NODE_RANGE,
): void {
  if (satisfiesNodeRange(version, range)) return;
  throw new ConfigurationError(
    `gflow needs Node ${range} (this is Node ${version}): its SQLite catalog's native addon crashes older Nodes, so nothing was started.`,
    { remediationHint: 'Install Node 24 LTS or 22 LTS from https://nodejs.org and run your program with it.' },
  );
}
