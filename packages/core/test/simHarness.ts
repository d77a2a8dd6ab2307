// Core's thin part of the test kit: gflow runtimes (createGflow) in a temp home whose browser is
// the kit's Chromium, pointed at the kit's simulator exactly as --sandbox points it
// (@gflow/testkit/browser). Used by the browser suites of this folder and by bench/.
import fs from 'node:fs';
import path from 'node:path';
import type { FlowSim } from '@gflow/flow-sim';
import { removeDir, tempDir, useStarted } from '@gflow/testkit';
import { browserSetting, signIn, startSimBrowser } from '@gflow/testkit/browser';
import { createGflow } from '../src/runtime/createGflow.js';
import type { Gflow } from '../src/runtime/gflow.js';
import type { Surface } from '../src/runtime/surfacePolicy.js';
import { resolveProfile } from '../src/home/profiles.js';

export interface Harness {
  readonly sim: FlowSim;
  readonly home: string;
  readonly outputDir: string;
  gflow(surface?: Surface, env?: Record<string, string>): Gflow;
  close(): Promise<void>;
}

/** A simulator, a temp home and runtimes whose browser maps Google's hosts to the simulator. */
export async function startHarness(): Promise<Harness> {
  const kit = await startSimBrowser();
  const home = tempDir('core-sim');
  const outputDir = path.join(home, 'out');
  const runtimes: Gflow[] = [];
  return {
    sim: kit.sim,
    home,
    outputDir,
    gflow(surface = 'library', env = {}) {
      const g = createGflow({
        surface,
        env: {
          GFLOW_CLI_HOME: home,
          GFLOW_CLI_OUTPUT_DIR: outputDir,
          GFLOW_CLI_TIMEOUT_SECONDS: '120',
          GFLOW_CLI_LOG_LEVEL: 'WARNING',
          ...browserSetting(),
          ...env,
        },
        cwd: home,
        browser: kit.runtimeBrowser,
      });
      runtimes.push(g);
      return g;
    },
    async close() {
      for (const g of runtimes) await g.close();
      await kit.close();
      removeDir(home);
    },
  };
}

/** startHarness in the file's beforeAll, closed in its afterAll. */
export function useHarness(): Harness {
  return useStarted('the core harness', startHarness, 120_000);
}

/** Signs a profile in the way a human does, in the profile's own browser (test setup, not gflow's login). */
export async function signInProfile(
  gflow: Gflow,
  sim: FlowSim,
  profile: string,
  email: string,
  password = 'correct horse',
): Promise<void> {
  fs.mkdirSync(gflow.layout.profileDir(profile), { recursive: true });
  const resolved = resolveProfile(gflow.layout, { requested: profile });
  await gflow.sessions.withSession(resolved, { signal: new AbortController().signal }, async (session) => {
    const page = await session.context.newPage();
    await signIn(page, sim, email, password);
    await page.close();
  });
}
