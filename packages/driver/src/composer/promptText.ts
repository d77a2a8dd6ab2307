import type { Locator } from 'playwright-core';
import type { OpContext } from '../session/opContext.js';
import { untilDom } from '../util/domWait.js';
import { A } from './anchors.js';
import { driftError } from './drift.js';
import { safeClick } from './safeClick.js';

/** The ProseMirror editor (the sibling textarea cannot be clicked). */
export function editor(ctx: OpContext): Locator {
  const { page } = ctx;
  return page
    .locator(`${A.promptBox} ${A.editor}`)
    .or(page.locator(`.ProseMirror${A.editor}`))
    .first();
}

async function focusEditor(ctx: OpContext): Promise<Locator> {
  const ed = editor(ctx);
  try {
    await safeClick(ctx, ed, 'typing the prompt');
  } catch (error) {
    const mapped = ctx.mapError(error, 'typing the prompt');
    if (mapped !== error) throw mapped;
    throw await driftError(ctx.page, 'Could not focus the prompt editor', A.editor, { cause: error });
  }
  return ed;
}

/** Clears the editor (Ctrl+A, Backspace). */
export async function clearPrompt(ctx: OpContext): Promise<Locator> {
  const ed = await focusEditor(ctx);
  await ctx.page.keyboard.press('ControlOrMeta+A');
  await ctx.page.keyboard.press('Backspace');
  return ed;
}

/**
 * Closes the `@` overlay that inserting text with an `@` opens (with no query: flow-wire §4), so
 * it cannot take the next key press. Only when it is open: Escape elsewhere may close other panes.
 */
export async function closeStrayPicker(ctx: OpContext): Promise<void> {
  const picker = ctx.page.locator(`${A.overlayPane}:has(${A.mentionTab})`).first();
  const open = await untilDom(
    ctx.page,
    async () => ((await picker.isVisible().catch(() => false)) ? true : undefined),
    {
      timeoutMs: 600,
      signal: ctx.signal,
    },
  );
  if (open === true) await ctx.page.keyboard.press('Escape');
}

/** Clears the editor and inserts the prompt with insertText, so a newline does not submit. */
export async function typePrompt(ctx: OpContext, prompt: string): Promise<void> {
  ctx.check('typing the prompt');
  const ed = await clearPrompt(ctx);
  await ctx.page.keyboard.insertText(prompt);
  if (prompt.includes('@')) await closeStrayPicker(ctx);
  const want = prompt.replace(/\s+/g, ' ').trim();
  const ok = await untilDom(
    ctx.page,
    async () => {
      const text = ((await ed.innerText().catch(() => '')) ?? '').replace(/\s+/g, ' ').trim();
      return text.includes(want) ? true : undefined;
    },
    { timeoutMs: 2_000, signal: ctx.signal },
  );
  if (ok !== true) throw await driftError(ctx.page, 'The prompt did not appear in the editor after typing', A.editor);
}

/** Moves the caret to the end of the editor. */
export async function caretToEnd(ctx: OpContext): Promise<void> {
  await focusEditor(ctx);
  await ctx.page.keyboard.press('ControlOrMeta+End');
}
