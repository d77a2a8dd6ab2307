import { describe, it } from 'vitest';
import type { SurfaceDriver } from './drivers/outcome.js';
import { type SurfaceName, requirementById } from './requirements.js';

/** One test `verifies` registered (or, while collecting, would register). */
export interface Registration {
  readonly id: string;
  readonly surface: SurfaceName;
  /** A known gap: the test passes only while the surface still fails (with the recorded symptom). */
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
 * with that surface's driver. A surface of the requirement's known gap gets
 * an inverted test: it passes while the gap is real and fails once it is
 * fixed, so the manifest must be updated.
 */
export function verifies(id: string, body: (surface: SurfaceDriver) => Promise<void>): void {
  const requirement = requirementById(id);
  const source = active;
  if (!source) throw new Error(`verifies('${id}') outside a surface suite: call useSurfaces() first in this file.`);
  const gaps = new Set(requirement.knownGap?.surfaces ?? []);
  for (const surface of requirement.surfaces)
    registered.push({ id, surface, expectedFailure: gaps.has(surface), suite: source.name });
  if (collecting) return;
  describe(id, () => {
    for (const surface of requirement.surfaces) {
      const run = async (): Promise<void> => body(await source.driver(surface));
      if (gaps.has(surface))
        it(
          `${surface} (known gap)`,
          () => expectStillFailing(run, surface, requirement.knownGap?.symptom),
          TEST_TIMEOUT_MS,
        );
      else it(surface, run, TEST_TIMEOUT_MS);
    }
  });
}

/**
 * The inverted assertion of a known gap: the body must still fail, and with
 * the recorded symptom, so a gap that is fixed (or that starts failing for
 * another reason) fails the suite.
 */
async function expectStillFailing(
  run: () => Promise<void>,
  surface: SurfaceName,
  symptom: string | undefined,
): Promise<void> {
  let failure: unknown;
  try {
    await run();
  } catch (error) {
    failure = error;
  }
  if (failure === undefined)
    throw new Error(
      `The known gap on ${surface} is fixed: the requirement now holds there. Remove ${surface} from its knownGap in src/requirements.ts.`,
    );
  const text = failure instanceof Error ? failure.message : String(failure);
  if (symptom !== undefined && !new RegExp(symptom).test(text)) {
    throw new Error(`The known gap on ${surface} fails differently than recorded (symptom /${symptom}/):\n${text}`);
  }
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
