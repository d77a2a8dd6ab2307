import { redactAndClip } from '@gflow/errors';
import { creditsControl } from '../account/readCredits.js';
import { parseCreditsText } from '../account/creditsText.js';
import type { FlowGenerationResult, SubmitDecision, SubmitHook, SubmitQuote } from '../generate/types.js';
import type { OpContext } from '../session/opContext.js';
import { textWithoutIcons } from './anchors.js';
import { openSettings } from './settingsPane.js';

/** What the pane's cost line said, as read: its text and its number (null when either is missing). */
export interface CostLineReading {
  readonly text: string | null;
  readonly credits: number | null;
}

/**
 * Reads the classic settings pane's cost line (flow-wire §4): "Generating will use **N** credits",
 * the text under the count row. Anchored on structure only — the first element after the count
 * radiogroup (`x1`…`x4`, in document order inside the pane) that holds a digit; N is its bold
 * number, else its one number. The words are translated and never read. Opens the pane when it is
 * closed. Never throws for a missing or odd line: `credits` is null and the caller warns.
 */
export async function readCostLine(ctx: OpContext): Promise<CostLineReading> {
  const pane = await openSettings(ctx);
  const found = await pane
    .evaluate((root) => {
      // No named helpers in page callbacks (src/pageFunctions.test.ts).
      const groups = Array.from(root.querySelectorAll('[role="radiogroup"]'));
      const count =
        groups.find((g) => {
          const radios = Array.from(g.querySelectorAll('[role="radio"]'));
          return (
            radios.length > 0 &&
            radios.every((r) => {
              const clone = r.cloneNode(true) as Element;
              for (const icon of Array.from(clone.querySelectorAll('mat-icon'))) icon.remove();
              return /^\s*x\d+\s*$/i.test(clone.textContent ?? '');
            })
          );
        }) ?? groups[groups.length - 1];
      if (count === undefined) return null;
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
      walker.currentNode = count;
      let after: Node | null = walker.nextNode();
      while (after !== null && count.contains(after)) after = walker.nextNode();
      for (; after !== null; after = walker.nextNode()) {
        const el = after as HTMLElement;
        if (el.closest('[role="radiogroup"]') !== null) continue;
        const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
        if (!/\d/.test(text)) continue;
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

/** The balance the page's header shows now (the credits control, flow-wire §5 [U]); null when unreadable. */
export async function readShownBalance(ctx: OpContext): Promise<number | null> {
  const control = creditsControl(ctx.page).first();
  if ((await control.count().catch(() => 0)) === 0) return null;
  const text = await textWithoutIcons(control).catch(() => '');
  const reading = parseCreditsText(text);
  return 'credits' in reading ? reading.credits : null;
}

/**
 * Asks the caller's hook (core decides; the driver reads) whether to click: `submit`, `stop` (a dry
 * run: nothing is clicked), or a throw (a budget refused it; nothing is clicked). An unreadable
 * quote is logged here, never a failure of the driver's own.
 */
export async function decideSubmit(
  ctx: OpContext,
  hook: SubmitHook | undefined,
  quote: SubmitQuote,
): Promise<SubmitDecision> {
  if (quote.credits === null)
    ctx.logger.warn('Flow showed no readable credit quote before this submit; credits_quoted is null', {
      source: quote.source,
      text: quote.text,
    });
  ctx.check('deciding the submit');
  if (hook === undefined) return 'submit';
  const decision = await hook(quote);
  ctx.check('deciding the submit');
  return decision;
}

/** The result of a run the hook stopped before the click (a dry run): the quote, the uploads it made, no items. */
export function stoppedBeforeSubmit(
  ctx: OpContext,
  run: { projectId: string; uploads: FlowGenerationResult['uploads']; quote: SubmitQuote },
): FlowGenerationResult {
  ctx.report({ phase: 'done', projectId: run.projectId });
  return {
    projectId: run.projectId,
    items: [],
    submitRpc: '',
    submitBody: '',
    uploads: run.uploads,
    arm: 'classic',
    quote: run.quote,
    stopped: 'before-submit',
  };
}
