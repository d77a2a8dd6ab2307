import type { FlowGenerationResult, SubmitHook, SubmitQuote } from './types.js';
import type { CostLineReading } from '../composer/costLine.js';
import { decideSubmit, readShownBalance, stoppedBeforeSubmit } from '../composer/costLine.js';
import type { OpContext } from '../session/opContext.js';
import type { DecodedCall } from '../wire/formBody.js';
import type { SubmitVerdict } from '../wire/submitCheck.js';
import { type GuardedSubmit, clickGuardedSubmit } from './submitWatcher.js';

/** How long a guarded click waits for the page's own submit request to leave. */
const SUBMIT_REQUEST_MS = 15_000;

/** What the submit step is handed: where it is, what was uploaded, the quote read, the caller's hook, the body check. */
export interface SubmitStep {
  readonly projectId: string;
  readonly uploads: FlowGenerationResult['uploads'];
  readonly costLine: CostLineReading;
  readonly beforeSubmit: SubmitHook | undefined;
  readonly check: (call: DecodedCall) => SubmitVerdict;
}

/** The click went out (the guarded submit and the tap's position before it), or the hook stopped before it. */
export type Submitted =
  | { readonly kind: 'stopped'; readonly result: FlowGenerationResult }
  | {
      readonly kind: 'sent';
      readonly seen: GuardedSubmit;
      readonly quote: SubmitQuote;
      readonly tappedBeforeClick: number;
    };

/**
 * The step both composers share between configuring and watching: the quote (the cost line and the
 * balance in the header) goes to the caller's hook, which decides (a dry run stops, a budget
 * refuses); then the guarded click — `submitting` reported before it, the page's own body checked
 * before it leaves.
 */
export async function quoteAndSubmit(ctx: OpContext, step: SubmitStep): Promise<Submitted> {
  const quote: SubmitQuote = { ...step.costLine, source: 'cost-line', balance: await readShownBalance(ctx) };
  if ((await decideSubmit(ctx, step.beforeSubmit, quote)) === 'stop')
    return {
      kind: 'stopped',
      result: stoppedBeforeSubmit(ctx, { projectId: step.projectId, uploads: step.uploads, quote }),
    };
  const tappedBeforeClick = ctx.tap.seq;
  const seen = await clickGuardedSubmit(ctx, step.check, SUBMIT_REQUEST_MS);
  return { kind: 'sent', seen, quote, tappedBeforeClick };
}
