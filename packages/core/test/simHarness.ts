import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type FlowSim, startFlowSim } from '@gflow/flow-sim';
import { createGflow } from '../src/runtime/createGflow.js';
import type { Gflow } from '../src/runtime/gflow.js';
import type { Surface } from '../src/operations/operation.js';
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
  const sim = await startFlowSim();
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-core-sim-'));
  const outputDir = path.join(home, 'out');
  const runtimes: Gflow[] = [];
  return {
    sim,
    home,
    outputDir,
    gflow(surface = 'library', env = {}) {
      const g = createGflow({
        surface,
        env: { GFLOW_CLI_HOME: home, GFLOW_CLI_OUTPUT_DIR: outputDir, GFLOW_CLI_TIMEOUT_SECONDS: '120', GFLOW_CLI_LOG_LEVEL: 'WARNING', ...env },
        cwd: home,
        browser: { extraArgs: sim.chromiumArgs, ignoreHTTPSErrors: true, headless: true, sandbox: true, proxy: sim.proxy.server },
      });
      runtimes.push(g);
      return g;
    },
    async close() {
      for (const g of runtimes) await g.close();
      await sim.close();
    },
  };
}

/** Signs a profile in the way a human does, in the profile's own browser (test setup, not gflow's login). */
export async function signInProfile(gflow: Gflow, sim: FlowSim, profile: string, email: string, password = 'correct horse'): Promise<void> {
  fs.mkdirSync(gflow.layout.profileDir(profile), { recursive: true });
  const resolved = resolveProfile(gflow.layout, { requested: profile });
  await gflow.sessions.withSession(resolved, { signal: new AbortController().signal }, async (session) => {
    const page = await session.context.newPage();
    await page.goto(sim.signInUrl);
    await page.fill('#identifierId', email);
    await page.click('#identifierNext button');
    await page.fill('input[name=Passwd]', password);
    await page.click('#passwordNext button');
    await page.waitForURL((u) => u.hostname === 'flow.google.com');
    await page.close();
  });
}
