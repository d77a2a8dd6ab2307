import type { BrowserContext, Page } from 'playwright-core';
import { UiSelectorDriftError } from '@gflow/errors';
import { projectUrl } from '../flow/hosts.js';
import { assertOnFlowApp, waitForAnchor } from '../projects/flowPage.js';
import { withScratchPage } from '../session/scratchPage.js';
import type { Brief, BriefCard } from './brief.js';
import { CARD, MASTER, PANEL } from './panel.js';

export interface BriefOptions {
  readonly projectId: string;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

type Wait = { signal?: AbortSignal | undefined; timeoutMs: number };

const EDITOR_READY = 'flow-prompt-box, flow-asset-grid, flow-base-prompt-box, flow-creative-agent-prompt-box';
/** How long the brief panel may trail the rest of the editor. */
const PANEL_GRACE_MS = 5_000;

/** Reads a project's live brief from its editor page (credit-free, read-only). */
export async function readBrief(context: BrowserContext, options: BriefOptions): Promise<Brief> {
  const wait = { signal: options.signal, timeoutMs: options.timeoutMs ?? 30_000 };
  return withScratchPage(context, projectUrl(options.projectId), { ...wait, what: 'reading the brief' }, (page) =>
    readBriefInPage(page, wait),
  );
}

/**
 * Waits for the editor and its brief panel ([U], panel.ts). An editor without a panel gflow knows
 * is UiSelectorDriftError (23): the cards cannot be read, and nothing is changed.
 */
export async function waitForPanel(page: Page, wait: Wait): Promise<void> {
  if (!(await waitForAnchor(page, page.locator(`${PANEL}, ${EDITOR_READY}`), wait))) {
    throw new UiSelectorDriftError('The project editor never rendered, so its brief could not be read.');
  }
  assertOnFlowApp(page);
  try {
    await page
      .locator(PANEL)
      .first()
      .waitFor({ state: 'visible', timeout: Math.min(PANEL_GRACE_MS, wait.timeoutMs) });
  } catch (error) {
    throw new UiSelectorDriftError(
      'The project editor shows no brief panel gflow knows (aside.instructions-panel), so its instruction cards cannot be read or changed; nothing was changed.',
      { cause: error },
    );
  }
}

/**
 * [U] Reads the brief the panel shows: each `flow-instruction-card` with `data-card-id`,
 * `data-enabled` (else its `[role=switch]`'s `aria-checked`), `.instruction-card-title`,
 * `.instruction-card-text` and the comma-separated `data-image-media-ids` / `data-character-ids`;
 * the master switch is the panel's `[role=switch]` outside the cards (absent = on).
 */
export async function readBriefInPage(page: Page, wait: Wait): Promise<Brief> {
  await waitForPanel(page, wait);
  const cards = await page.locator(CARD).evaluateAll((els) =>
    els.map((el) => {
      const title = el.querySelector('.instruction-card-title')?.textContent?.trim() ?? '';
      const body = el.querySelector('.instruction-card-text')?.textContent ?? el.textContent ?? '';
      const own = el.querySelector('[role="switch"]')?.getAttribute('aria-checked');
      const flag = el.getAttribute('data-enabled') ?? own ?? 'true';
      const id = el.getAttribute('data-card-id');
      return {
        id: id === null || id === '' ? null : id,
        title,
        enabled: flag !== 'false' && el.getAttribute('aria-disabled') !== 'true',
        text: body.trim(),
        // No named helper functions in page callbacks: tsx (esbuild keepNames) wraps
        // them in a __name helper that does not exist in the page (src/pageFunctions.test.ts).
        image_media_ids: (el.getAttribute('data-image-media-ids') ?? '').split(/[\s,]+/).filter((s) => s !== ''),
        character_ids: (el.getAttribute('data-character-ids') ?? '').split(/[\s,]+/).filter((s) => s !== ''),
      };
    }),
  );
  const master = page.locator(PANEL).first().locator(MASTER).first();
  const enabled = (await master.count()) === 0 ? true : (await master.getAttribute('aria-checked')) !== 'false';
  return { enabled, cards: cards as BriefCard[] };
}
