import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { SIM_HOSTS } from '../src/index.js';
import type { FlowSim } from '../src/index.js';

export function chromiumPath(): string {
  const explicit = process.env['GFLOW_CLI_BROWSER_EXECUTABLE'];
  const found = [explicit, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => p !== undefined && existsSync(p));
  if (found === undefined) throw new Error('no Chromium found (set GFLOW_CLI_BROWSER_EXECUTABLE)');
  return found;
}

export const BROWSER_FLAGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'];

export async function launchFor(sim: FlowSim): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: [...sim.chromiumArgs, ...BROWSER_FLAGS] });
}

/** Records every request host a context makes, so a test can prove only simulated hosts were used. */
export function watchHosts(ctx: BrowserContext): Set<string> {
  const hosts = new Set<string>();
  ctx.on('request', (r: Request) => {
    const u = new URL(r.url());
    if (u.protocol === 'http:' || u.protocol === 'https:') hosts.add(u.hostname);
  });
  return hosts;
}

export function foreignHosts(hosts: Set<string>): string[] {
  return [...hosts].filter((h) => !SIM_HOSTS.includes(h));
}

/** Signs in the way a human does: email, Next, password, Next. */
export async function signIn(page: Page, sim: FlowSim, email: string, password = 'correct horse'): Promise<void> {
  await page.goto(sim.signInUrl);
  await page.fill('#identifierId', email);
  await page.click('#identifierNext button');
  await page.fill('input[name=Passwd]', password);
  await page.click('#passwordNext button');
  await page.waitForURL((u) => u.hostname === 'flow.google.com');
}

export async function newSignedInPage(browser: Browser, sim: FlowSim, email: string): Promise<{ ctx: BrowserContext; page: Page; hosts: Set<string> }> {
  const ctx = await browser.newContext({ ...sim.contextOptions, viewport: { width: 1400, height: 900 } });
  const hosts = watchHosts(ctx);
  const page = await ctx.newPage();
  await signIn(page, sim, email);
  return { ctx, page, hosts };
}
