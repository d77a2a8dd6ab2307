// @gflow/testkit/browser: real Chromium against @gflow/flow-sim, with no gflow code in between
// (the kit never imports the driver, so the simulator's contract tests stay independent of it).
// The harness itself is the simulator's (@gflow/flow-sim/testing); the kit adds the tests' Chromium
// (@gflow/tooling/chromium) and the file's hooks.
import fs from 'node:fs';
import path from 'node:path';
import type { FlowSimOptions } from '@gflow/flow-sim';
import { type SimBrowser, launchSimBrowser } from '@gflow/flow-sim/testing';
import { TEST_BROWSER_FLAGS, chromiumExecutable } from '@gflow/tooling/chromium';
import { useStarted } from '@gflow/tooling/useStarted';

export {
  TEST_BROWSER_FLAGS,
  browserSetting,
  chromiumExecutable,
  findChromium,
  useFullBrowser,
} from '@gflow/tooling/chromium';
export {
  captureBodies,
  foreignHosts,
  makeMedia,
  openProject,
  pickModel,
  pickSettings,
  runtimeBrowserFor,
  signIn,
  submit,
  typePrompt,
  uploadPng,
  watchHosts,
  type SimBrowser,
} from '@gflow/flow-sim/testing';

/**
 * Where a browser test saves its screenshots for a person to look at: the test report folder
 * (GFLOW_TEST_REPORT_DIR, set by `npm test`), else `test-results/` at the repository root (git
 * ignores it), under `screenshots/<name>`; created.
 */
export function screenshotsDir(name: string): string {
  const root =
    process.env['GFLOW_TEST_REPORT_DIR'] ?? path.resolve(import.meta.dirname, '..', '..', '..', 'test-results');
  const dir = path.join(root, 'screenshots', name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** A simulator (latency 'fast' unless said otherwise) and the tests' Chromium readied for it. */
export function startSimBrowser(options: FlowSimOptions = {}): Promise<SimBrowser> {
  return launchSimBrowser({ executablePath: chromiumExecutable(), flags: TEST_BROWSER_FLAGS }, options);
}

/** startSimBrowser in the file's beforeAll, closed in its afterAll (see useStarted). */
export function useSimBrowser(options: FlowSimOptions = {}): SimBrowser {
  return useStarted('the simulator', () => startSimBrowser(options));
}
