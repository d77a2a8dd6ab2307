import type { BrowserContext } from 'playwright-core';
import { WireFormatError } from '@gflow/errors';
import { projectUrl } from '../flow/hosts.js';
import { openFlowPage } from '../projects/flowPage.js';
import { type Brief, type BriefChange, applyBriefChange } from './brief.js';
import { type BriefOptions, PANEL, readBriefInPage } from './readBrief.js';

/** [U] An editable brief: a card editor inside the instructions panel. Neither flow-wire nor the simulator define one. */
const CARD_EDITOR = 'flow-instruction-card-editor, flow-instruction-card [contenteditable="true"]';

export interface BriefWrite {
  /** The brief as read live before the change. */
  readonly before: Brief;
  /** The full card set that would be written back (ids of untouched cards kept). */
  readonly after: Brief;
}

/**
 * Reads the live brief, applies one change (add / set-enabled / rm / toggle-mode / apply) and
 * writes the full card set back so card ids are kept. Fails safe: how flow.google.com stores the
 * brief is not known ([U]), and gflow never forges Flow's requests, so when the page offers no
 * brief editor to drive, nothing is changed and WireFormatError (7) says so with the intended set.
 */
export async function changeBrief(
  context: BrowserContext,
  options: BriefOptions & { change: BriefChange },
): Promise<BriefWrite> {
  const wait = { signal: options.signal, timeoutMs: options.timeoutMs ?? 30_000 };
  const page = await openFlowPage(context, projectUrl(options.projectId), wait);
  try {
    const before = await readBriefInPage(page, wait);
    const after = applyBriefChange(before, options.change);
    const editable =
      (await page.locator(PANEL).locator(CARD_EDITOR).count()) > 0 || (await page.locator(CARD_EDITOR).count()) > 0;
    throw new WireFormatError(
      editable
        ? 'The project page shows a brief editor, but gflow does not know how flow.google.com saves instruction cards yet; nothing was changed.'
        : 'The project page offers no way to edit its instruction cards (the brief is shown read-only), so the change was not written; nothing was changed.',
      { extensions: { intended_cards: after.cards.length, live_cards: before.cards.length }, retryable: false },
    );
  } finally {
    await page.close().catch(() => undefined);
  }
}

/** Writes a whole card set (`instructions apply`): a changeBrief with op 'apply'. */
export async function writeBrief(
  context: BrowserContext,
  options: BriefOptions & { brief: Brief },
): Promise<BriefWrite> {
  return changeBrief(context, {
    ...options,
    change: {
      op: 'apply',
      cards: options.brief.cards.map((c) => ({
        title: c.title,
        text: c.text,
        enabled: c.enabled,
        image_media_ids: c.image_media_ids,
        character_ids: c.character_ids,
      })),
    },
  });
}
