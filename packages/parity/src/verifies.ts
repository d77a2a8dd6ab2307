import { describe, it } from 'vitest';
import type { SurfaceDriver } from './drivers/outcome.js';
import { type SurfaceName, requirementById } from './requirements.js';

/** One test `verifies` registered (or, while collecting, would register). */
export interface Registration {
  readonly id: string;
  readonly surface: SurfaceName;
  /** A known gap: the test is `it.fails`, so it passes only while the surface still fails. */
  readonly expectedFailure: boolean;
  readonly suite: string;
}

/** Where `verifies` gets its drivers: the suite of the current test file (harness.ts). */
export interface DriverSource {
  readonly name: string;
  driver(surface: SurfaceName): Promise<SurfaceDriver>;
}

const TEST_TIMEOUT_MS = 90_000;
const registered: Registration[] = [];
let active: DriverSource | undefined;
let collecting = false;

/** Makes `source` the suite later `verifies` calls of this module graph use. */
export function activateSuite(source: DriverSource): void {
  active = source;
}

/** True while coverage.test.ts imports the suites only to see what they register. */
export function isCollecting(): boolean {
  return collecting;
}

/**
 * Registers one test per surface of requirement `id`, each running `body`
 * with that surface's driver. Surfaces of the requirement's known gap get
 * `it.fails`: the test passes while the gap is real and fails once it is
 * fixed, so the manifest must be updated.
 */
export function verifies(id: string, body: (surface: SurfaceDriver) => Promise<void>): void {
  const requirement = requirementById(id);
  const source = active;
  if (!source) throw new Error(`verifies('${id}') outside a surface suite: call useSurfaces() first in this file.`);
  const gaps = new Set(requirement.knownGap?.surfaces ?? []);
  for (const surface of requirement.surfaces) registered.push({ id, surface, expectedFailure: gaps.has(surface), suite: source.name });
  if (collecting) return;
  describe(id, () => {
    for (const surface of requirement.surfaces) {
      const run = async (): Promise<void> => body(await source.driver(surface));
      if (gaps.has(surface)) it.fails(`${surface} (known gap: ${requirement.knownGap?.reason ?? ''})`, run, TEST_TIMEOUT_MS);
      else it(surface, run, TEST_TIMEOUT_MS);
    }
  });
}

/** Everything `verifies` registered so far in this module graph. */
export function registrations(): readonly Registration[] {
  return [...registered];
}

/**
 * Loads suites (their modules call `useSurfaces` and `verifies`) without
 * registering tests, hooks or starting anything, and returns what they
 * would register.
 */
export async function collectRegistrations(load: () => Promise<void>): Promise<Registration[]> {
  const before = registered.length;
  collecting = true;
  try {
    await load();
  } finally {
    collecting = false;
    active = undefined;
  }
  return registered.slice(before);
}
