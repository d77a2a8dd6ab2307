import type { Page } from 'playwright-core';
import { WireFormatError } from '@gflow/errors';
import { A } from '../composer/anchors.js';
import { dismissPageOverlays } from '../composer/overlays.js';
import { waitForAnchor } from '../projects/flowPage.js';

export const EDITOR = `${A.promptBox} ${A.editor}`;
/** The picker's tabs, in Flow's order (flow-wire §4): All, Images, Videos, Voices, Characters, Avatars, Uploads. */
export const PICKER_TAB = A.mentionTab;
export const CHARACTERS_TAB_INDEX = 4;

/**
 * Waits for the classic composer's editor, dismisses overlays and focuses it. No editor (the
 * agent-only composer, or a page that never settles) means the picker cannot be used.
 */
export async function focusEditor(
  page: Page,
  wait: { signal?: AbortSignal | undefined; timeoutMs: number },
  purpose: string,
): Promise<void> {
  const editor = page.locator(EDITOR);
  if (!(await waitForAnchor(page, editor, wait))) {
    throw new WireFormatError(
      `The project editor shows no classic composer (\`${EDITOR}\`), so ${purpose} cannot be read on flow.google.com (#875).`,
    );
  }
  await dismissPageOverlays(page);
  await editor.first().click({ timeout: 5_000 });
}

/** Opens the `@` picker with a real key press (insert_text opens one with no query, flow-wire §4). */
export async function openMentionPicker(page: Page): Promise<void> {
  await page.keyboard.type('@');
}

/** Closes the picker and clears the draft so nothing is left in the composer. */
export async function abandonMention(page: Page): Promise<void> {
  await page.keyboard.press('Escape').catch(() => undefined);
  const editor = page.locator(EDITOR).first();
  if (await editor.isVisible().catch(() => false)) {
    await editor.click({ timeout: 2_000 }).catch(() => undefined);
    await page.keyboard.press('ControlOrMeta+A').catch(() => undefined);
    await page.keyboard.press('Backspace').catch(() => undefined);
  }
}
