import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { type FlowSim, startFlowSim } from '@gflow/flow-sim';

export const CHROMIUM = process.env['GFLOW_CLI_BROWSER_EXECUTABLE'] ?? '/usr/bin/chromium';
export const ROOT_FLAGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}`);

export interface Harness {
  readonly sim: FlowSim;
  /** Launch settings every part-2 entry point takes. */
  readonly launch: { executablePath: string; extraArgs: string[]; ignoreHTTPSErrors: true };
  tempProfile(): Promise<string>;
  /** The file's one shared browser (launched on first use). */
  browser(): Promise<Browser>;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const sim = await startFlowSim({ latency: 'fast' });
  const root = await mkdtemp(join(tmpdir(), 'gflow-part2-'));
  let n = 0;
  let shared: Promise<Browser> | null = null;
  const browser = (): Promise<Browser> =>
    (shared ??= chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...sim.chromiumArgs, ...ROOT_FLAGS] }));
  return {
    browser,
    sim,
    launch: { executablePath: CHROMIUM, extraArgs: [...sim.chromiumArgs, ...ROOT_FLAGS], ignoreHTTPSErrors: true },
    tempProfile: async () => join(root, `profile_${(n += 1)}`),
    close: async () => {
      if (shared !== null) await (await shared).close().catch(() => undefined);
      await sim.close();
    },
  };
}

/** A persistent context signed in the way a person does it (email, Next, password, Next). */
export async function signedInContext(h: Harness, email: string, password = 'pw'): Promise<BrowserContext> {
  const context = await (await h.browser()).newContext({ ignoreHTTPSErrors: true, viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto(h.sim.signInUrl);
  await page.fill('input[type=email]', email);
  await page.click('#identifierNext button');
  await page.fill('input[type=password]', password);
  await page.click('#passwordNext button');
  await page.waitForURL((u) => u.hostname === 'flow.google.com' && !u.pathname.startsWith('/_/'));
  await page.close();
  return context;
}
