import type { Locator } from 'playwright-core';
import { InsufficientCreditsError, redactAndClip } from '@gflow/errors';
import { parseCreditsText } from '../account/creditsText.js';
import { A, withIcon } from '../composer/anchors.js';
import type { CostLineReading } from '../composer/costLine.js';
import { driftError } from '../composer/drift.js';
import { safeClick } from '../composer/safeClick.js';
import type { SubmitReady } from '../generate/prepare.js';
import type { OpContext } from '../session/opContext.js';
import { untilDom } from '../util/domWait.js';
import { SCENE } from './sceneEditor.js';

/** The extend composer around its text field: the nearest ancestor that holds a button ([U] layout). */
function composerOf(field: Locator): Locator {
  return field.locator('xpath=ancestor::*[.//button][1]');
}

function fieldText(field: Locator): Promise<string> {
  return field.evaluate((el) =>
    (el instanceof HTMLTextAreaElement ? el.value : ((el as HTMLElement).innerText ?? '')).replace(/\s+/g, ' ').trim(),
  );
}

/** Types the prompt into the extend field (a rich-text editor or a textarea) with insertText, and reads it back. */
export async function typeExtendPrompt(ctx: OpContext, field: Locator, prompt: string): Promise<void> {
  ctx.check('typing the prompt');
  await safeClick(ctx, field, 'typing the prompt');
  await ctx.page.keyboard.press('ControlOrMeta+A');
  await ctx.page.keyboard.press('Backspace');
  await ctx.page.keyboard.insertText(prompt);
  const want = prompt.replace(/\s+/g, ' ').trim();
  const ok = await untilDom(
    ctx.page,
    async () => ((await fieldText(field).catch(() => '')).includes(want) ? true : undefined),
    { timeoutMs: 2_000, signal: ctx.signal },
  );
  if (ok !== true) throw await driftError(ctx.page, 'The prompt did not appear in the extend field', SCENE.field);
}

/**
 * What the extend composer says the extension costs, where the page shows it ([U]: a cost line
 * "Generating will use **N** credits", or a chip "N credits"): the composer's first element
 * outside the text field and its buttons that holds a number; N is its bold number, else its one
 * number. The words are translated and never read. Never throws: `credits` is null when there is
 * none (a budget then fails closed in core).
 */
export async function readExtendQuote(field: Locator): Promise<CostLineReading> {
  const found = await composerOf(field)
    .evaluate((root) => {
      // No named helpers in page callbacks (src/pageFunctions.test.ts).
      for (const el of Array.from(root.querySelectorAll('*'))) {
        if (el.closest('button, textarea, [contenteditable="true"], mat-icon') !== null) continue;
        const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
        if (!/\d/.test(text) || el.querySelector('button, textarea, [contenteditable="true"]') !== null) continue;
        const bold = el.matches('b, strong') ? el : el.querySelector('b, strong');
        return { text, bold: bold === null ? null : (bold.textContent ?? '').trim() };
      }
      return null;
    })
    .catch(() => null);
  if (found === null) return { text: null, credits: null };
  const fromBold = found.bold === null ? null : parseCreditsText(found.bold);
  const reading = fromBold !== null && 'credits' in fromBold ? fromBold : parseCreditsText(found.text);
  return { text: redactAndClip(found.text, 200), credits: 'credits' in reading ? reading.credits : null };
}

/**
 * The extend composer's submit (`arrow_forward` / `send`), once enabled; a credit shortfall shown in
 * its place (`button.prompt-warning-button`, as the composer's) is InsufficientCreditsError before
 * anything is spent.
 */
export function extendSubmitReady(field: Locator): SubmitReady {
  return async (ctx) => {
    const composer = composerOf(field);
    const [first, ...rest] = SCENE.submitIcons;
    let submit = withIcon(ctx.page, composer.locator('button'), first);
    for (const icon of rest) submit = submit.or(withIcon(ctx.page, composer.locator('button'), icon));
    const button = submit.filter({ visible: true }).first();
    const warning = composer.locator(A.creditsWarning).filter({ visible: true });
    const state = await untilDom(
      ctx.page,
      async () => {
        ctx.check('waiting for the extend submit');
        if ((await warning.count().catch(() => 0)) > 0) return 'credits' as const;
        return (await button.isEnabled().catch(() => false)) ? ('ready' as const) : undefined;
      },
      { timeoutMs: 5_000, signal: ctx.signal },
    );
    if (state === 'credits')
      throw new InsufficientCreditsError(
        'Flow shows its insufficient-credits warning in place of the extend submit. Nothing was submitted.',
      );
    if (state !== 'ready')
      throw await driftError(
        ctx.page,
        'The extend submit (arrow_forward / send) did not become enabled within 5 s',
        SCENE.field,
      );
    return button;
  };
}
