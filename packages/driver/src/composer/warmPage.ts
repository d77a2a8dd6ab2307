import { hasFlowOsidCookie, hasGoogleSessionCookie } from '../auth/cookieChecks.js';
import { FLOW_ORIGIN, flowLandingKind, projectIdOfUrl } from '../flow/hosts.js';
import type { FramesLeft, OpContext } from '../session/opContext.js';
import { untilDom } from '../util/domWait.js';
import { A } from './anchors.js';
import { overlayShown } from './overlays.js';

/** The refusal of a page whose composer still holds a frame bound by the last run. */
export const FRAME_STILL_BOUND = 'a frame from the last run is still bound';

/**
 * Why the open page cannot serve the next operation on `projectId` as it is (null: it can). The
 * cheap health check of a warm session (#22): a page left by a successful operation, still on that
 * project's editor, signed in (the Google and Flow session cookies are there), the classic
 * composer or the agent box in front, nothing over it, no pane or picker left open, no frame still
 * bound from the last run (the prompt itself is cleared by whoever types it). Anything else and
 * the caller navigates as on a cold start.
 */
export async function warmPageRefusal(
  ctx: OpContext,
  projectId: string,
  options: {
    /** Frames left bound do not refuse the page: the run keeps or unbinds them itself (bindVideo). */
    readonly framesStay?: boolean;
  } = {},
): Promise<string | null> {
  const { page } = ctx;
  if (!ctx.warmPage) return 'the page is fresh or the last operation on it failed';
  const url = page.url();
  if (flowLandingKind(url) !== 'app' || projectIdOfUrl(url) !== projectId) return 'the page is on another address';
  const cookies = await page
    .context()
    .cookies([FLOW_ORIGIN, 'https://accounts.google.com'])
    .catch(() => []);
  if (!hasGoogleSessionCookie(cookies) || !hasFlowOsidCookie(cookies)) return 'the session cookies are gone';
  const state = await page
    .evaluate(
      (sel) => {
        // Whether any element of each selector is shown; no named inner functions (pageFunctions.test.ts).
        const [trigger, chip, box, pane, picker] = [sel.trigger, sel.agentChip, sel.agentBox, sel.pane, sel.picker].map(
          (selector) =>
            Array.from(document.querySelectorAll(selector)).some(
              (el) =>
                el instanceof HTMLElement &&
                el.getClientRects().length > 0 &&
                getComputedStyle(el).visibility !== 'hidden',
            ),
        );
        return {
          composer: trigger === true || chip === true || box === true,
          pane: pane === true,
          picker: picker === true,
          bound: document.querySelectorAll(sel.bound).length,
        };
      },
      {
        trigger: A.trigger,
        agentChip: A.agentChip,
        agentBox: A.agentBox,
        pane: A.overlayPane,
        picker: A.picker,
        bound: A.boundChip,
      },
    )
    .catch(() => null);
  if (state === null) return 'the page did not answer';
  if (!state.composer) return 'no composer is shown';
  if (state.pane || state.picker) return 'a pane or picker is open';
  if (state.bound > 0 && options.framesStay !== true) return FRAME_STILL_BOUND;
  if (await overlayShown(page)) return 'something sits over the composer';
  return null;
}

/**
 * Unbinds the frames the last run left in the composer (a composer that keeps them after a submit,
 * flow-sim `composerAfterSubmit` [U]) the way a person does: a bound chip's click unbinds it (the
 * simulator's reading, [U]). True once no bound chip is left; false when a click did not unbind
 * (Escape closes whatever it opened instead), and the caller loads the page afresh.
 */
export async function unbindLeftFrames(ctx: OpContext): Promise<boolean> {
  const bound = ctx.page.locator(A.boundChip);
  for (let left = await bound.count().catch(() => 0); left > 0;) {
    await bound
      .first()
      .click({ timeout: 2_000 })
      .catch(() => undefined);
    const fewer = await untilDom(
      ctx.page,
      async () => {
        const now = await bound.count().catch(() => left);
        return now < left ? now : undefined;
      },
      { timeoutMs: 2_000, signal: ctx.signal },
    );
    if (fewer === undefined) {
      await ctx.page.keyboard.press('Escape').catch(() => undefined);
      return false;
    }
    left = fewer;
  }
  return true;
}

/** The bound Frames chips' thumbnail srcs, in page order ('' for a chip without one). */
export function boundChipThumbs(ctx: OpContext): Promise<string[]> {
  return ctx.page
    .locator(A.boundChip)
    .evaluateAll((els) => els.map((el) => el.querySelector('img')?.getAttribute('src') ?? ''));
}

/**
 * Whether the Frames chips bound now (`thumbs`) are still those the last run left (`left`: the same
 * thumbnails, in order) and hold what this run binds (`wanted`: its Start media id, then its End's):
 * that run's guarded submit sent exactly those ids from exactly these chips. Anything else — other
 * frames, a chip changed since, a chip without a thumbnail, nothing known — is unbound and bound
 * afresh.
 */
export function framesStillLeft(
  left: FramesLeft | null,
  wanted: readonly string[],
  thumbs: readonly string[],
): boolean {
  if (left === null || wanted.length === 0 || wanted.length !== left.mediaIds.length) return false;
  if (!wanted.every((id, i) => id === left.mediaIds[i])) return false;
  return thumbs.length === left.thumbs.length && thumbs.every((t, i) => t !== '' && t === left.thumbs[i]);
}
