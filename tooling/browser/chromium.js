// The tests' Chromium: which executable and which flags. gflow itself finds its browser in core
// (src/jobs/browserLaunch.ts); this is the test side's, shared by the bootstrap, the simulator's
// own browser harness (@gflow/flow-sim/testing) and the test kit (@gflow/testkit).
import { findChromium } from './findChromium.js';

export { findChromium };

/** Flags of every browser a test launches: no sandbox as root, no background traffic, no first run. */
export const TEST_BROWSER_FLAGS = Object.freeze([
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
]);

/** The Chrome/Chromium the tests use (findChromium); throws with what to do when there is none. */
export function chromiumExecutable() {
  const found = findChromium();
  if (found === undefined) {
    const explicit = process.env['GFLOW_CLI_BROWSER_EXECUTABLE'];
    throw new Error(
      explicit
        ? `GFLOW_CLI_BROWSER_EXECUTABLE=${explicit} does not exist`
        : 'No Chrome or Chromium found: run `npm run bootstrap`, or set GFLOW_CLI_BROWSER_EXECUTABLE',
    );
  }
  return found;
}

/** The setting that hands the tests' browser to a gflow runtime or child (core finds none by itself then). */
export function browserSetting() {
  return { GFLOW_CLI_BROWSER_EXECUTABLE: chromiumExecutable() };
}

/**
 * For a test file that proves what only the full browser does — Chrome's own profile lock (a second
 * browser on a profile in use is refused, and the lock names the browser's pid), which the headless
 * shell does not take: the file's browsers are then the full Chrome/Chromium. Call it at the top of
 * the file, before anything launches.
 */
export function useFullBrowser() {
  process.env['GFLOW_TEST_BROWSER'] = 'full';
}
