import { ReferenceNotFoundError } from '@gflow/errors';
import type { OpContext } from '../session/opContext.js';
import { pollUntil, sleep } from '../util/abort.js';
import { A, textWithoutIcons } from './anchors.js';
import { caretToEnd } from './promptText.js';

export interface MentionTarget {
  readonly displayName: string;
  /** The id the chip must carry in `data-entity-id`. */
  readonly id: string;
  readonly referenceType: 'media' | 'entity';
}

const OPTION = `${A.overlayPane} ${A.assetOption}`;

async function optionIndex(ctx: OpContext, name: string, timeoutMs: number): Promise<number | undefined> {
  const options = ctx.page.locator(OPTION);
  return pollUntil(
    async () => {
      const n = await options.count().catch(() => 0);
      for (let i = 0; i < n; i += 1) if ((await textWithoutIcons(options.nth(i)).catch(() => '')).includes(name)) return i;
      return undefined;
    },
    { timeoutMs, intervalMs: 200, signal: ctx.signal },
  );
}

async function chipIds(ctx: OpContext): Promise<Array<{ type: string | null; id: string | null }>> {
  return ctx.page.locator(A.mentionChip).evaluateAll((els) => els.map((e) => ({ type: e.getAttribute('data-reference-type'), id: e.getAttribute('data-entity-id') })));
}

/**
 * Attaches a reference as an `@` mention (flow-wire §4): real key presses (`@` + name), the
 * picker's option committed, then the chip's `data-reference-type` / `data-entity-id` verified —
 * characters and media share one unranked search.
 */
export async function addMention(ctx: OpContext, target: MentionTarget): Promise<void> {
  const { page } = ctx;
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    ctx.check('attaching a reference');
    const before = (await chipIds(ctx)).length;
    await caretToEnd(ctx);
    await page.keyboard.type(` @${target.displayName}`, { delay: 15 });
    const index = await optionIndex(ctx, target.displayName, 2_500 * attempt);
    if (index === undefined) {
      // Late indexing: erase the query and try again.
      for (let i = 0; i < target.displayName.length + 2; i += 1) await page.keyboard.press('Backspace');
      await page.keyboard.press('Escape');
      await sleep(400 * attempt, ctx.signal);
      continue;
    }
    // The list re-renders while the server-side search catches up with the typing: locate the
    // option by its name (re-resolved on every retry), not by a position that may go stale.
    const option = page.locator(OPTION).filter({ hasText: target.displayName }).first();
    const active = ((await option.getAttribute('class').catch(() => '')) ?? '').includes('asset-item-active');
    if (active) await page.keyboard.press('Enter');
    else await option.click({ timeout: 5_000 });
    const chips = await pollUntil(
      async () => {
        const now = await chipIds(ctx);
        return now.length > before ? now : undefined;
      },
      { timeoutMs: 4_000, intervalMs: 150, signal: ctx.signal },
    );
    const mine = chips?.find((c) => c.id === target.id);
    if (mine === undefined) {
      const got = chips?.slice(before).map((c) => `${c.type ?? '?'}:${c.id ?? '?'}`).join(', ');
      throw new ReferenceNotFoundError(`The @ mention of ${target.displayName} did not attach the asset asked for${got ? ` (the chip carries ${got})` : ' (no chip appeared)'}. Nothing was submitted.`, {
        retryable: false,
      });
    }
    if (mine.type !== target.referenceType) {
      throw new ReferenceNotFoundError(`The @ mention of ${target.displayName} attached a ${mine.type ?? 'untyped'} chip, not ${target.referenceType}. Nothing was submitted.`, { retryable: false });
    }
    return;
  }
  throw new ReferenceNotFoundError(`The @ picker lists no asset named ${target.displayName} after three tries. Nothing was submitted.`);
}
