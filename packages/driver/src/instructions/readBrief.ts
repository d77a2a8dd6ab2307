import type { BrowserContext, Page } from 'playwright-core';
import { UiSelectorDriftError } from '@gflow/errors';
import { projectUrl } from '../flow/hosts.js';
import { assertOnFlowApp, openFlowPage, waitForAnchor } from '../projects/flowPage.js';
import type { Brief, BriefCard } from './brief.js';

export interface BriefOptions {
  readonly projectId: string;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/**
 * [U] Where the project editor shows its brief. flow-wire does not say how flow.google.com reads
 * or writes Agent-mode instruction cards; this follows the simulator's contract: the editor renders
 * each card as a `flow-instruction-card`, optionally with `data-card-id`, `data-enabled`, a
 * `.instruction-card-title` and `.instruction-card-text`; an optional `[role="switch"]` in the
 * instructions panel is the master switch (absent = on). No cards rendered = an empty brief.
 */
export const CARD = 'flow-instruction-card';
export const PANEL = 'aside.instructions-panel, flow-instructions-panel';
const EDITOR_READY = 'flow-prompt-box, flow-asset-grid, flow-base-prompt-box, flow-instruction-card';

/** Reads a project's live brief from its editor page (credit-free, read-only). */
export async function readBrief(context: BrowserContext, options: BriefOptions): Promise<Brief> {
  const wait = { signal: options.signal, timeoutMs: options.timeoutMs ?? 30_000 };
  const page = await openFlowPage(context, projectUrl(options.projectId), wait);
  try {
    return await readBriefInPage(page, wait);
  } finally {
    await page.close().catch(() => undefined);
  }
}

export async function readBriefInPage(
  page: Page,
  wait: { signal?: AbortSignal | undefined; timeoutMs: number },
): Promise<Brief> {
  if (!(await waitForAnchor(page, page.locator(EDITOR_READY), wait))) {
    throw new UiSelectorDriftError('The project editor never rendered, so its brief could not be read.');
  }
  assertOnFlowApp(page);
  const cards = await page.locator(CARD).evaluateAll((els) =>
    els.map((el) => {
      const title = el.querySelector('.instruction-card-title')?.textContent?.trim() ?? '';
      const body = el.querySelector('.instruction-card-text')?.textContent ?? el.textContent ?? '';
      return {
        id: el.getAttribute('data-card-id'),
        title,
        enabled: el.getAttribute('data-enabled') !== 'false' && el.getAttribute('aria-disabled') !== 'true',
        text: body.trim(),
        // No named helper functions in page callbacks: tsx (esbuild keepNames) wraps
        // them in a __name helper that does not exist in the page (src/pageFunctions.test.ts).
        image_media_ids: (el.getAttribute('data-image-media-ids') ?? '').split(/[\s,]+/).filter((s) => s !== ''),
        character_ids: (el.getAttribute('data-character-ids') ?? '').split(/[\s,]+/).filter((s) => s !== ''),
      };
    }),
  );
  const master = page.locator(PANEL).locator('[role="switch"]').first();
  const enabled = (await master.count()) === 0 ? true : (await master.getAttribute('aria-checked')) !== 'false';
  return { enabled, cards: cards as BriefCard[] };
}
