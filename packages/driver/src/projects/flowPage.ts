import type { BrowserContext, Locator, Page } from 'playwright-core';
import { NetworkError } from '@gflow/errors';
import { flowLandingKind } from '../flow/hosts.js';
import { LANDING_RECHECK_MS, STABLE_LANDING_MS, landingError } from '../flow/landingError.js';
import { throwIfAborted } from '../util/abort.js';
import { nextDomChange } from '../util/domWait.js';

export interface PageWait {
  readonly signal?: AbortSignal | undefined;
  readonly timeoutMs?: number;
}

/** Opens a scratch page on the context and navigates it; a client-side hop that aborts the load is fine. */
export async function openFlowPage(
  context: BrowserContext,
  url: string,
  wait: PageWait = {},
  beforeGoto?: (page: Page) => void,
): Promise<Page> {
  throwIfAborted(wait.signal, 'opening Flow');
  const page = await context.newPage();
  beforeGoto?.(page);
  try {
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: wait.timeoutMs ?? 60_000 });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!/net::ERR_ABORTED|interrupted by another navigation/.test(message)) {
      await page.close().catch(() => undefined);
      throw new NetworkError(
        `Could not load ${new URL(url).origin}${new URL(url).pathname}: ${message.split('\n')[0] ?? message}`,
        { cause: error },
      );
    }
  }
  return page;
}

/**
 * Waits until `anchor` is visible on a Flow app page. A non-app landing (sign-in, /about,
 * /unavailable, /404?reason=project, another host) that holds for STABLE_LANDING_MS throws its
 * landing error. Returns false when the time runs out on an app page without the anchor.
 */
export async function waitForAnchor(page: Page, anchor: Locator, wait: PageWait = {}): Promise<boolean> {
  const deadline = Date.now() + (wait.timeoutMs ?? 30_000);
  let landing: { url: string; since: number } | null = null;
  for (;;) {
    throwIfAborted(wait.signal, 'waiting for Flow');
    const url = page.url();
    if (flowLandingKind(url) === 'app') {
      landing = null;
      if (
        await anchor
          .first()
          .isVisible()
          .catch(() => false)
      )
        return true;
    } else if (landing === null || landing.url !== url) {
      landing = { url, since: Date.now() };
    } else if (Date.now() - landing.since >= STABLE_LANDING_MS) {
      const err = landingError(url, 'auto');
      if (err !== null) throw err;
    }
    if (Date.now() >= deadline) {
      const err = landingError(page.url(), 'auto');
      if (err !== null) throw err;
      return false;
    }
    await nextDomChange(page, LANDING_RECHECK_MS);
  }
}

/** Re-checks the page's URL at a blocking point (the page may have hopped mid-run). */
export function assertOnFlowApp(page: Page): void {
  const err = landingError(page.url(), 'auto');
  if (err !== null) throw err;
}

/** A locator for elements holding a `<mat-icon>` with exactly this ligature. */
export function withLigature(page: Page, base: Locator, ligature: string): Locator {
  const escaped = ligature.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return base.filter({ has: page.locator('mat-icon').filter({ hasText: new RegExp(`^\\s*${escaped}\\s*$`) }) });
}
