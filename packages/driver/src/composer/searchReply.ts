import type { OpContext } from '../session/opContext.js';
import { ChangeSignal } from '../util/changeSignal.js';

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
  const needle = JSON.stringify(query).slice(1, -1);
  const changed = new ChangeSignal();
  const unsubscribe = ctx.tap.subscribe(() => changed.notify());
  try {
    const answered = (): true | undefined => {
      const asked = ctx.tap
        .requestsSince(since, [SEARCH_RPC])
        .filter((r) => r.calls.some((c) => c.rpcId === SEARCH_RPC && c.innerJson.includes(needle)));
      return asked.some((r) => ctx.tap.responses.some((res) => res.request === r.request)) ? true : undefined;
    };
    return (await changed.until(answered, timeoutMs, ctx.signal)) === true;
  } finally {
    unsubscribe();
  }
}
