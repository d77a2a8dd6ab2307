import { ReferenceNotFoundError, UiSelectorDriftError } from '@gflow/errors';
import type { OpContext } from '../session/opContext.js';
import { pollUntil, sleep } from '../util/abort.js';
import { A, textsWithoutIcons } from './anchors.js';
import { driftError } from './drift.js';
import { safeClick } from './safeClick.js';
import { type AttachableReference, withUploadFallback } from './mentions.js';

async function findOption(ctx: OpContext, displayName: string, timeoutMs: number): Promise<number | undefined> {
  const options = ctx.page.locator(`${A.picker} ${A.assetOption}`);
  return pollUntil(
    async () => {
      // One snapshot of every option's text: the list re-renders while a search settles, and
      // reading the options one by one waited up to 30 s for each that had gone (measured: a
      // stalled journey in the variant matrix, two minutes with no request on the wire).
      const texts = await textsWithoutIcons(options).catch((): string[] => []);
      const index = texts.findIndex((text) => text.includes(displayName));
      return index < 0 ? undefined : index;
    },
    { timeoutMs, intervalMs: 250, signal: ctx.signal },
  );
}

/**
 * Binds an uploaded asset to the next empty Frames chip (Start, then End) through the library
 * picker (flow-wire §4 "Frames"): search up to 3× (fresh uploads are indexed late), commit on the
 * option click or with "Add to prompt", then wait for `boundAfter` bound chips.
 */
export async function bindFrame(
  ctx: OpContext,
  slot: 'Start' | 'End',
  displayName: string,
  boundAfter: number,
): Promise<void> {
  const { page } = ctx;
  ctx.check(`binding the ${slot} frame`);
  const chip = page.locator(A.emptyChip).first();
  try {
    await safeClick(ctx, chip, `binding the ${slot} frame`);
  } catch (error) {
    const mapped = ctx.mapError(error, `binding the ${slot} frame`);
    if (mapped !== error) throw mapped;
    throw await driftError(page, `Could not click the empty ${slot} chip`, A.emptyChip, { cause: error });
  }
  const picker = page.locator(A.picker).filter({ visible: true }).first();
  if (
    (await pollUntil(async () => ((await picker.isVisible().catch(() => false)) ? true : undefined), {
      timeoutMs: 5_000,
      signal: ctx.signal,
    })) !== true
  ) {
    throw await driftError(page, `The ${slot} chip did not open the library picker`, A.picker);
  }
  const search = picker.locator('input[type="text"]').first();
  let index: number | undefined;
  for (let attempt = 1; attempt <= 3 && index === undefined; attempt += 1) {
    ctx.check(`binding the ${slot} frame`);
    await search.fill('');
    await search.fill(displayName);
    index = await findOption(ctx, displayName, 2_500 * attempt);
  }
  if (index === undefined) {
    await page.keyboard.press('Escape');
    throw new ReferenceNotFoundError(
      `The frame picker lists no asset named ${displayName} after three searches. Nothing was submitted.`,
      { extensions: { not_listed: true } },
    );
  }
  // Re-resolved by name at the click: the list re-renders on every search, a position goes stale.
  await picker.locator(A.assetOption).filter({ hasText: displayName }).first().click({ timeout: 5_000 });
  await sleep(500, ctx.signal);
  if (await picker.isVisible().catch(() => false)) {
    const confirm = picker.locator(A.addToPrompt).first();
    if (!(await confirm.isVisible().catch(() => false))) {
      throw new UiSelectorDriftError(
        `The frame picker stayed open after the ${slot} option click and carries no confirm (\`${A.addToPrompt}\`).`,
      );
    }
    await confirm.click({ timeout: 5_000 });
    const hidden = await pollUntil(async () => ((await picker.isVisible().catch(() => false)) ? undefined : true), {
      timeoutMs: 5_000,
      signal: ctx.signal,
    });
    if (hidden !== true)
      throw new UiSelectorDriftError(
        `The frame picker stayed open after the ${slot} option click and stayed open after its confirm was clicked.`,
      );
  }
  const bound = await pollUntil(
    async () =>
      (await page
        .locator(A.boundChip)
        .count()
        .catch(() => 0)) >= boundAfter
        ? true
        : undefined,
    {
      timeoutMs: 5_000,
      signal: ctx.signal,
    },
  );
  if (bound !== true) {
    throw new ReferenceNotFoundError(
      `The ${slot} chip did not bind ${displayName}: the search and the click both landed, but the chip did not take the thumbnail. Nothing was submitted.`,
      {
        retryable: false,
      },
    );
  }
}

/**
 * Binds a frame reference: in place by its display name, and — when the picker does not list it
 * and the reference carries a fallback (an upload of its verified local file) — that upload
 * instead; the reference then becomes the upload (AttachableReference).
 */
export async function bindFrameRef(
  ctx: OpContext,
  slot: 'Start' | 'End',
  ref: AttachableReference,
  boundAfter: number,
): Promise<void> {
  await withUploadFallback(ctx, ref, 'the frame picker', () => bindFrame(ctx, slot, ref.displayName, boundAfter));
}
