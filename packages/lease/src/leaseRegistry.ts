/**
 * The in-process registry of profile leases, consulted before any file is touched: a second
 * acquire of a profile this process already holds (or is acquiring) fails at once, because
 * waiting for ourselves would deadlock. It lives on globalThis under a Symbol.for key so two
 * copies of this package in one process share it.
 */
export interface RegistryEntry {
  readonly token: string;
  readonly profileName: string;
  /** Set once the lock is held; undefined while the first acquire is still waiting. */
  acquiredAt: Date | undefined;
}

const REGISTRY_KEY = Symbol.for('gflow.lease.registry');

function registry(): Map<string, RegistryEntry> {
  const holder = globalThis as unknown as Record<symbol, Map<string, RegistryEntry> | undefined>;
  let map = holder[REGISTRY_KEY];
  if (map === undefined) {
    map = new Map();
    holder[REGISTRY_KEY] = map;
  }
  return map;
}

/** Reserves `key`; returns the entry already there instead when the key is taken. */
export function reserveProfile(key: string, entry: RegistryEntry): RegistryEntry | undefined {
  const map = registry();
  const existing = map.get(key);
  if (existing !== undefined) return existing;
  map.set(key, entry);
  return undefined;
}

/** Frees `key`, only when it is still reserved with `token`. */
export function releaseProfile(key: string, token: string): void {
  const map = registry();
  if (map.get(key)?.token === token) map.delete(key);
}
