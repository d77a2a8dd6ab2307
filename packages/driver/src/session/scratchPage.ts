import type { BrowserContext, Page } from 'playwright-core';
import { hasErrorCode } from '@gflow/errors';
import { type PageWait, openFlowPage } from '../projects/flowPage.js';
import { throwIfAborted } from '../util/abort.js';
import { SILENT_LOGGER } from '../util/logger.js';
import { capturePage } from './capturePage.js';
import type { IncidentSnapshot } from './incidentSnapshot.js';
import { WireTap } from './wireTap.js';

/** How a scratch page is opened: the page wait, what it is for (the bundle says it), listeners to add before it loads. */
export interface ScratchWait extends PageWait {
  readonly what: string;
  readonly beforeGoto?: (page: Page) => void;
}

/** What each failed scratch-page operation photographed, by the value it threw (taken once). */
const snapshots = new WeakMap<object, IncidentSnapshot>();

/**
 * Runs `body` on a page of its own (opened on `url`, or blank for a body that navigates itself; closed afterwards) with a wire tap from
 * before the navigation. When `body` fails, the page is photographed at the failure, before it is
 * closed (URL, anchors, rpc log, screenshot), and the snapshot is kept for the thrown value:
 * {@link pageSnapshotOf} hands it to whoever records the incident. A cancellation, or a closed
 * browser, is not photographed.
 */
export async function withScratchPage<T>(
  context: BrowserContext,
  url: string | null,
  wait: ScratchWait,
  body: (page: Page) => Promise<T>,
): Promise<T> {
  let tap: WireTap | undefined;
  const attach = (p: Page): void => {
    tap = new WireTap(p, SILENT_LOGGER);
    wait.beforeGoto?.(p);
  };
  let page: Page;
  if (url === null) {
    throwIfAborted(wait.signal, wait.what);
    page = await context.newPage();
    attach(page);
  } else page = await openFlowPage(context, url, wait, attach);
  try {
    return await body(page);
  } catch (error) {
    const skip =
      wait.signal?.aborted === true ||
      hasErrorCode(error, 'cancelled') ||
      hasErrorCode(error, 'browser-session-closed');
    if (!skip && tap !== undefined && typeof error === 'object' && error !== null && !page.isClosed()) {
      const snapshot = await capturePage({ what: wait.what, page, tap }, true).catch(() => null);
      if (snapshot !== null) snapshots.set(error, snapshot);
    }
    throw error;
  } finally {
    tap?.detach();
    await page.close().catch(() => undefined);
  }
}

/** The snapshot {@link withScratchPage} took when its body threw `error`; null otherwise. Taken once. */
export function pageSnapshotOf(error: unknown): IncidentSnapshot | null {
  if (typeof error !== 'object' || error === null) return null;
  const snapshot = snapshots.get(error) ?? null;
  snapshots.delete(error);
  return snapshot;
}
