// The simulator's contract tests and its browser harness (src/testing), with the tests' Chromium.
// The same two lines as @gflow/testkit/browser's useSimBrowser: the simulator cannot depend on the
// kit, which depends on it.
import { TEST_BROWSER_FLAGS, chromiumExecutable } from '@gflow/tooling/chromium';
import { useStarted } from '@gflow/tooling/useStarted';
import type { FlowSimOptions } from '../src/index.js';
import { type SimBrowser, launchSimBrowser } from '../src/testing/index.js';

export * from '../src/testing/index.js';

/** A simulator and Chromium for it, started in the file's beforeAll and closed in its afterAll. */
export function useSimBrowser(options: FlowSimOptions = {}): SimBrowser {
  return useStarted('the simulator', () =>
    launchSimBrowser({ executablePath: chromiumExecutable(), flags: TEST_BROWSER_FLAGS }, options),
  );
}
