import type { BrowserContext, Page, Request } from 'playwright-core';
import { SIM_HOSTS } from '../net/hosts.js';
import type { FlowSim } from '../startFlowSim.js';

/** Signs in the way a human does: email, Next, password, Next; waits for Flow's own page. */
export async function signIn(page: Page, sim: FlowSim, email: string, password = 'correct horse'): Promise<void> {
  await page.goto(sim.signInUrl);
  await page.fill('#identifierId', email);
  await page.click('#identifierNext button');
  await page.fill('input[name=Passwd]', password);
  await page.click('#passwordNext button');
  await page.waitForURL((u) => u.hostname === 'flow.google.com' && !u.pathname.startsWith('/_/'));
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

/** The hosts in `hosts` that the simulator does not serve. */
export function foreignHosts(hosts: Set<string>): string[] {
  return [...hosts].filter((h) => !SIM_HOSTS.includes(h));
}
