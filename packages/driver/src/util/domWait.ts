import type { Page } from 'playwright-core';
import { throwIfAborted } from './abort.js';

/**
 * The longest a DOM wait goes without re-probing when the page shows no change. A safety net for
 * what changes without a mutation (layout, a stylesheet turning something visible), not the
 * pacing: a change wakes the wait at once.
 */
const RECHECK_MS = 150;

/**
 * Resolves on the page's next DOM change (a node, attribute or text anywhere under the document),
 * or after `capMs` when none comes. Installs nothing that outlives the call: one MutationObserver,
 * disconnected as it resolves. A navigation that destroys the context counts as a change.
 */
export async function nextDomChange(page: Page, capMs: number): Promise<void> {
  const observed = await page
    .evaluate(
      (cap) =>
        new Promise<void>((resolve) => {
          // No named inner functions: this text runs in the page (pageFunctions.test.ts).
          const observer = new MutationObserver(() => {
            observer.disconnect();
            clearTimeout(timer);
            resolve();
          });
          observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
          const timer = setTimeout(() => {
            observer.disconnect();
            resolve();
          }, cap);
        }),
      capMs,
    )
    .then(
      () => true,
      () => false,
    );
  // The context went away under the observer (a navigation): wait for the next document instead.
  if (!observed && !page.isClosed())
    await page.waitForLoadState('domcontentloaded', { timeout: capMs }).catch(() => undefined);
}

/**
 * Waits for a state of the page: runs `probe` now and again on every DOM change (capped at
 * {@link RECHECK_MS} between probes) until it returns a value other than undefined, which is
 * returned, or `timeoutMs` passes (undefined). Honours the signal. This is the driver's one way to
 * wait for the page: no fixed-interval polling.
 */
export async function untilDom<T>(
  page: Page,
  probe: () => Promise<T | undefined>,
  options: { timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<T | undefined> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    throwIfAborted(options.signal);
    const value = await probe();
    if (value !== undefined) return value;
    const left = deadline - Date.now();
    if (left <= 0) return undefined;
    if (page.isClosed()) return undefined;
    await nextDomChange(page, Math.min(RECHECK_MS, left));
  }
}

/** {@link untilDom} for a yes/no state: true once `test` holds, false when `timeoutMs` passes first. */
export async function untilTrue(
  page: Page,
  test: () => Promise<boolean>,
  options: { timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<boolean> {
  return (await untilDom(page, async () => ((await test()) ? true : undefined), options)) === true;
}

/**
 * Waits for a reading of the page to settle: `read` is taken on every DOM change until it gives
 * the same non-undefined value (compared as JSON) for `quietMs` in a row; that value is returned,
 * or undefined when `timeoutMs` passes first. For lists that re-render while replies come in.
 */
export async function untilSettled<T>(
  page: Page,
  read: () => Promise<T | undefined>,
  options: { timeoutMs: number; quietMs: number; signal?: AbortSignal | undefined },
): Promise<T | undefined> {
  let last: { json: string; since: number } | null = null;
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    throwIfAborted(options.signal);
    const value = await read();
    const now = Date.now();
    if (value === undefined) last = null;
    else {
      const json = JSON.stringify(value);
      if (last === null || last.json !== json) last = { json, since: now };
      else if (now - last.since >= options.quietMs) return value;
    }
    const left = deadline - now;
    if (left <= 0 || page.isClosed()) return undefined;
    // Woken by the next change; when none comes, look again once the quiet window has passed.
    const untilQuiet = last === null ? RECHECK_MS : Math.max(1, last.since + options.quietMs - now);
    await nextDomChange(page, Math.min(untilQuiet, RECHECK_MS, left));
  }
}
