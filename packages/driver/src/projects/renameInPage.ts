import type { Page } from 'playwright-core';
import { UiSelectorDriftError, WireFormatError } from '@gflow/errors';
import { assertOnFlowApp, waitForAnchor } from './flowPage.js';
import { parseRenameProjectReply } from './projectReplies.js';
import { expectRpcReply, payloadOf } from './rpcReply.js';

/** [U] The editor header's title control: a button that turns into a text input (the simulator's contract). */
export const TITLE_BUTTON = 'flow-app-header button.project-title';
export const TITLE_INPUT = 'flow-app-header input[type="text"]';

/**
 * Renames the project open in `page` through its header title control and returns the title
 * Flow's own `o8DA4` reply confirms.
 */
export async function renameInPage(
  page: Page,
  title: string,
  wait: { signal?: AbortSignal | undefined; timeoutMs: number },
): Promise<string> {
  const button = page.locator(TITLE_BUTTON);
  if (!(await waitForAnchor(page, button, wait))) {
    throw new UiSelectorDriftError(`The project editor shows no title control (\`${TITLE_BUTTON}\`) to rename with.`);
  }
  await button.first().click({ timeout: 5_000 });
  const input = page.locator(TITLE_INPUT).first();
  if (!(await input.isVisible().catch(() => false)))
    await input.waitFor({ state: 'visible', timeout: 5_000 }).catch(() => undefined);
  if (!(await input.isVisible().catch(() => false)))
    throw new UiSelectorDriftError(`Clicking the project title opened no text input (\`${TITLE_INPUT}\`).`);
  await input.fill(title);
  const reply = expectRpcReply(page, 'o8DA4', { timeoutMs: wait.timeoutMs, signal: wait.signal });
  await input.press('Enter');
  const confirmed = parseRenameProjectReply(payloadOf(await reply), title).title;
  assertOnFlowApp(page);
  if (confirmed !== title.trim()) {
    throw new WireFormatError(
      `Flow confirmed the rename with another title than asked for (${JSON.stringify(confirmed)}).`,
    );
  }
  return confirmed;
}
