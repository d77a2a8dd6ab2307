import type { Request, Route } from 'playwright-core';
import type { OpContext } from '../session/opContext.js';
import { type DecodedCall, decodeFormBody, isBatchexecuteUrl } from '../wire/formBody.js';
import { SUBMIT_RPCS, type SubmitVerdict } from '../wire/submitCheck.js';

/** The submit call in a batchexecute body, if it carries one. */
export function submitCallOfBody(body: string | null): DecodedCall | undefined {
  return decodeFormBody(body ?? '').calls.find((c) => SUBMIT_RPCS.includes(c.rpcId));
}

interface Decision {
  readonly body: string;
  readonly verdict: SubmitVerdict;
}

/**
 * Holds the page's own submit request in the browser (Playwright request routing) and checks
 * its body against the generation asked for before it may leave: a body that passes goes on to
 * Flow untouched, one that does not is aborted in the browser (nothing reaches Flow). Other
 * batchexecute rpcs pass untouched. The guard is the one that decides; the submit watcher asks
 * it for its verdict on the request it saw (`verdictFor`).
 */
export class SubmitGuard {
  readonly #decisions: Decision[] = [];
  readonly #waiters = new Set<() => void>();
  readonly #matcher = (url: URL): boolean => isBatchexecuteUrl(url.href);
  readonly #handler = async (route: Route, request: Request): Promise<void> => {
    const body = request.postData() ?? '';
    const call = submitCallOfBody(body);
    if (call === undefined) {
      await route.fallback();
      return;
    }
    const verdict = this.check(call);
    this.#decisions.push({ body, verdict });
    for (const wake of [...this.#waiters]) wake();
    if (verdict.ok) {
      await route.fallback();
      return;
    }
    this.ctx.logger.warn('a submit body that is not the generation asked for was stopped before it left the browser', {
      rpcId: call.rpcId,
      problems: verdict.problems,
    });
    await route.abort('blockedbyclient');
  };

  constructor(
    private readonly ctx: OpContext,
    readonly check: (call: DecodedCall) => SubmitVerdict,
  ) {}

  async install(): Promise<void> {
    await this.ctx.page.route(this.#matcher, this.#handler);
  }

  /** Removes the route (only once the guard decided on the submit, or the submit never came). */
  async remove(): Promise<void> {
    this.#waiters.clear();
    await this.ctx.page.unroute(this.#matcher, this.#handler).catch(() => undefined);
  }

  /**
   * The guard's verdict on the submit request with this body. The page's `request` event and the
   * route handler race, so this waits (up to `timeoutMs`) for the handler; undefined when the
   * request never passed through the guard.
   */
  verdictFor(body: string, timeoutMs: number): Promise<SubmitVerdict | undefined> {
    const find = (): SubmitVerdict | undefined => this.#decisions.find((d) => d.body === body)?.verdict;
    const now = find();
    if (now !== undefined) return Promise.resolve(now);
    return new Promise((resolve) => {
      const done = (value: SubmitVerdict | undefined): void => {
        clearTimeout(timer);
        this.#waiters.delete(wake);
        resolve(value);
      };
      const wake = (): void => {
        const found = find();
        if (found !== undefined) done(found);
      };
      const timer = setTimeout(() => done(undefined), timeoutMs);
      this.#waiters.add(wake);
    });
  }
}
