// The simulator's own browser harness: one simulator and a Chromium pointed at it, with no gflow
// code in between. The test kit (@gflow/testkit/browser) supplies the executable and the flags
// and wraps it in the file's hooks; the simulator's own contract tests use it the same way.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import { type FlowSim, type FlowSimOptions, startFlowSim } from '../startFlowSim.js';
import { signIn, watchHosts } from './signIn.js';

/**
 * One simulator and the system Chromium pointed at it: the only differences from production are
 * launch options (the simulator's host mapping, its CONNECT proxy, its self-signed certificate).
 */
export interface SimBrowser {
  readonly sim: FlowSim;
  readonly executablePath: string;
  /** Chromium flags: the simulator's host mapping, then TEST_BROWSER_FLAGS. */
  readonly args: readonly string[];
  /** For the driver's entry points (openFlowSession, loginWithBrowser, probeSession, renewSession, …). */
  readonly launch: {
    readonly executablePath: string;
    readonly extraArgs: string[];
    readonly ignoreHTTPSErrors: true;
    readonly headless: true;
    readonly proxy: { readonly server: string };
  };
  /** `browser` of a gflow runtime (createGflow) that talks to the simulator, exactly as --sandbox does. */
  readonly runtimeBrowser: {
    readonly extraArgs: string[];
    readonly proxy: string;
    readonly ignoreHTTPSErrors: true;
    readonly headless: true;
    readonly sandbox: true;
  };
  /** The one shared browser (plain playwright-core), launched on first use. */
  browser(): Promise<Browser>;
  /** A persistent context on `dir` with the same flags (a profile that outlives a launch). */
  launchPersistent(dir: string): Promise<BrowserContext>;
  /** A new context of the shared browser, signed in like a person, and the hosts it asked for. */
  signedInPage(email: string, password?: string): Promise<{ ctx: BrowserContext; page: Page; hosts: Set<string> }>;
  /** The same, the sign-in page closed. */
  signedInContext(email: string, password?: string): Promise<BrowserContext>;
  /** A fresh path under this harness's temp dir (not created); removed by close(). */
  tempPath(name: string): string;
  close(): Promise<void>;
}

/** `browser` of a gflow runtime (createGflow) that talks to `sim`, exactly as --sandbox does. */
export function runtimeBrowserFor(sim: FlowSim): SimBrowser['runtimeBrowser'] {
  return {
    extraArgs: [...sim.chromiumArgs],
    proxy: sim.proxy.server,
    ignoreHTTPSErrors: true,
    headless: true,
    sandbox: true,
  };
}

/** Which Chromium, with which flags (after the simulator's own), for launchSimBrowser. */
export interface SimBrowserLaunch {
  readonly executablePath: string;
  readonly flags: readonly string[];
}

/** Starts a simulator (latency 'fast' unless said otherwise) and readies Chromium for it. */
export async function launchSimBrowser(launch: SimBrowserLaunch, options: FlowSimOptions = {}): Promise<SimBrowser> {
  const { executablePath } = launch;
  const sim = await startFlowSim({ latency: 'fast', ...options });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-sim-browser-'));
  const args = [...sim.chromiumArgs, ...launch.flags];
  let shared: Promise<Browser> | undefined;
  let n = 0;
  const browser = (): Promise<Browser> => (shared ??= chromium.launch({ executablePath, headless: true, args }));
  const signedInPage = async (email: string, password?: string) => {
    const ctx = await (await browser()).newContext({ ...sim.contextOptions, viewport: { width: 1400, height: 900 } });
    const hosts = watchHosts(ctx);
    const page = await ctx.newPage();
    await signIn(page, sim, email, password);
    return { ctx, page, hosts };
  };
  return {
    sim,
    executablePath,
    args,
    launch: { executablePath, extraArgs: [...args], ignoreHTTPSErrors: true, headless: true, proxy: sim.proxy },
    runtimeBrowser: runtimeBrowserFor(sim),
    browser,
    launchPersistent: (dir) =>
      chromium.launchPersistentContext(dir, { executablePath, headless: true, args, ...sim.contextOptions }),
    signedInPage,
    async signedInContext(email, password) {
      const { ctx, page } = await signedInPage(email, password);
      await page.close();
      return ctx;
    },
    tempPath: (name) => path.join(root, `${name}-${(n += 1)}`),
    async close() {
      if (shared !== undefined) await (await shared.catch(() => undefined))?.close().catch(() => undefined);
      await sim.close();
      fs.rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
