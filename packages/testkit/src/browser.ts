// @gflow/testkit/browser: real Chromium against @gflow/flow-sim, with no gflow code in between
// (the kit never imports the driver, so the simulator's contract tests stay independent of it).
// The harness itself is the simulator's (@gflow/flow-sim/testing); the kit adds the tests' Chromium
// (@gflow/tooling/chromium) and the file's hooks.
import type { FlowSimOptions } from '@gflow/flow-sim';
import { type SimBrowser, launchSimBrowser } from '@gflow/flow-sim/testing';
import { TEST_BROWSER_FLAGS, chromiumExecutable } from '@gflow/tooling/chromium';
import { useStarted } from '@gflow/tooling/useStarted';

export { TEST_BROWSER_FLAGS, browserSetting, chromiumExecutable, findChromium } from '@gflow/tooling/chromium';
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

/** A simulator (latency 'fast' unless said otherwise) and the tests' Chromium readied for it. */
export function startSimBrowser(options: FlowSimOptions = {}): Promise<SimBrowser> {
  return launchSimBrowser({ executablePath: chromiumExecutable(), flags: TEST_BROWSER_FLAGS }, options);
}

/** startSimBrowser in the file's beforeAll, closed in its afterAll (see useStarted). */
export function useSimBrowser(options: FlowSimOptions = {}): SimBrowser {
  return useStarted('the simulator', () => startSimBrowser(options));
}
