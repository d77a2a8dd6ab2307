import type { Page } from 'playwright-core';
import type { OpContext } from '../session/opContext.js';
import type { TapEvent } from '../session/wireTap.js';
import { untilTrue } from '../util/domWait.js';

/**
 * The pace of loading a project again while something there is unsettled. The grid and the
 * picker are per-load snapshots (flow-wire §4), so an item pending at one load is seen settled only
 * on a later one. A pace, not a measurement: quick first (Flow's image reply is ~20 s, a fast
 * simulator's well under a second), then no more than one load every 8 s.
 */
const PACE_MS = [1_000, 2_000, 4_000, 8_000] as const;

export function paceOf(look: number): number {
  return PACE_MS[Math.min(look, PACE_MS.length - 1)] ?? 8_000;
}

/** A deadline's remainder, never below zero. */
export function left(deadline: number): number {
  return Math.max(0, deadline - Date.now());
}

/**
 * Before the next load: waits until the page settles a pending tile by itself (an app that follows
 * its pending items live), or the pace runs out.
 */
export async function untilPendingSettles(ctx: OpContext, before: number, ms: number): Promise<void> {
  const count = (page: Page): Promise<number> =>
    page
      .locator('flow-pending-tile')
      .count()
      .catch(() => before);
  ctx.check('waiting for pending items');
  await untilTrue(ctx.page, async () => (await count(ctx.page)) < before, { timeoutMs: ms, signal: ctx.signal });
}

/** Before the next load: waits until the page receives a reply that `fits`, or the pace runs out. */
export async function untilReplyFits(ctx: OpContext, fits: (event: TapEvent) => boolean, ms: number): Promise<void> {
  class Paced extends Error {}
  await ctx
    .waitForTap(
      (event) => (fits(event) ? true : undefined),
      ms,
      () => new Paced(),
      'waiting for the project listing',
    )
    .catch((error) => {
      if (!(error instanceof Paced)) throw error;
    });
}
