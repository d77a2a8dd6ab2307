import type { OpContext } from '../session/opContext.js';
import { ChangeSignal } from '../util/changeSignal.js';
import type { TappedResponse } from '../session/wireTap.js';

/** Flow's asset search behind the pickers and `@` (flow-wire §2: UI event → `UpteDb`). */
export const SEARCH_RPC = 'UpteDb';

/**
 * Waits until the page's own search for `query` (an `UpteDb` request sent after tap sequence
 * `since` whose inner JSON carries the query) has been answered: until then a picker lists what an
 * earlier query found (the library picker opens on everything, and answers the typed query only
 * after its debounce), and an option picked there may be re-rendered away under the click. True
 * when answered; false when no such reply came in `timeoutMs` (the caller reads the list anyway).
 */
export async function searchAnswered(
  ctx: OpContext,
  since: number,
  query: string,
  timeoutMs: number,
): Promise<boolean> {
  const changed = new ChangeSignal();
  const unsubscribe = ctx.tap.subscribe(() => changed.notify());
  try {
    const answered = (): true | undefined => (searchRepliesSince(ctx, since, query).length > 0 ? true : undefined);
    return (await changed.until(answered, timeoutMs, ctx.signal)) === true;
  } finally {
    unsubscribe();
  }
}

/**
 * The replies to the page's own asset searches (`UpteDb`) sent after tap sequence `since` — of
 * `query` only (its inner JSON carries it), when one is given — in the order they came.
 */
export function searchRepliesSince(ctx: OpContext, since: number, query?: string): TappedResponse[] {
  const needle = query === undefined ? undefined : JSON.stringify(query).slice(1, -1);
  const asked = ctx.tap
    .requestsSince(since, [SEARCH_RPC])
    .filter((r) => needle === undefined || r.calls.some((c) => c.rpcId === SEARCH_RPC && c.innerJson.includes(needle)))
    .map((r) => r.request);
  return ctx.tap.responses.filter((res) => asked.includes(res.request));
}

/**
 * Waits for the page's own asset search asked for after tap sequence `since`, whatever its query
 * (a picker's search of nothing as it opens): its replies once one is in, or none when the page
 * asked for nothing within `askedMs` or no reply came within `timeoutMs`.
 */
export async function openingSearch(
  ctx: OpContext,
  since: number,
  wait: { readonly askedMs: number; readonly timeoutMs: number },
): Promise<TappedResponse[]> {
  const changed = new ChangeSignal();
  const unsubscribe = ctx.tap.subscribe(() => changed.notify());
  try {
    const asked = (): true | undefined => (ctx.tap.requestsSince(since, [SEARCH_RPC]).length > 0 ? true : undefined);
    if ((await changed.until(asked, wait.askedMs, ctx.signal)) === undefined) return [];
    const replies = (): TappedResponse[] | undefined => {
      const found = searchRepliesSince(ctx, since);
      return found.length > 0 ? found : undefined;
    };
    return (await changed.until(replies, wait.timeoutMs, ctx.signal)) ?? [];
  } finally {
    unsubscribe();
  }
}
