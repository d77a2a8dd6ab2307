import type { Page } from 'playwright-core';
import { BrowserSessionClosedError, TransportTimeoutError, isGflowError } from '@gflow/errors';
import type { FlowHostSetting } from '../flow/hosts.js';
import { landingError } from '../flow/landingError.js';
import { cancelled } from '../util/abort.js';
import type { DriverLogger } from '../util/logger.js';
import type { TapEvent, WireTap } from './wireTap.js';

/** Phases reported through onProgress; core checkpoints `submitting` before the click. */
export type GenerationPhase =
  'opening' | 'uploading' | 'configuring' | 'submitting' | 'submitted' | 'generating' | 'downloading' | 'done';

export interface DriverProgressEvent {
  readonly phase: GenerationPhase;
  /** True from the submit click on: credits may have been spent. */
  readonly mayHaveSpent: boolean;
  readonly projectId?: string;
  readonly mediaIds?: readonly string[];
  readonly workflowIds?: readonly string[];
  readonly submitRpc?: string;
  /** Video status (6 submitted, 2 running, 3 done) when known. */
  readonly status?: number;
  readonly message?: string;
}

/**
 * The caller's progress callback. It may answer a promise (a write that takes time, such as a
 * fleet's queue): `submitting` is awaited before the click, and the click does not happen when it
 * fails; other phases are not awaited, and their failures are logged.
 */
export type DriverProgress = (event: DriverProgressEvent) => unknown;

/** What one operation on a page carries through its steps. */
export class OpContext {
  afterSubmit = false;
  /** Landing checks start once this operation has navigated (before that the URL is the previous run's). */
  landingChecks = false;
  /** The title Flow confirmed for a project this operation created and titled (openProject), else null. */
  projectTitle: string | null = null;
  #closedReason: string | null = null;
  readonly #onClose: () => void;

  readonly page: Page;
  readonly tap: WireTap;
  readonly flowHost: FlowHostSetting;
  readonly logger: DriverLogger;
  readonly signal: AbortSignal | undefined;
  readonly progress: DriverProgress;
  /**
   * The page was left by an operation that succeeded on it, recently: opening the project it is
   * still on may reuse it after a health check instead of navigating (openProject).
   */
  readonly warmPage: boolean;
  /**
   * This operation kept the page as the last run left it (openProject reused it) and has not loaded
   * it since: tiles drawn from replies carry no `/asb/` token, so an asset attached in place that
   * cannot be told apart asks for a fresh load (thumbnailIds.ts FreshPageNeeded).
   */
  pageKept = false;
  /** What the last operation on this warm page left bound in its Frames chips (null: nothing known). */
  readonly framesLeft: FramesLeft | null;
  /** What this operation leaves bound for the next on the page, once its guarded submit went out. */
  framesBound: FramesLeft | null = null;

  constructor(parts: {
    page: Page;
    tap: WireTap;
    flowHost: FlowHostSetting;
    logger: DriverLogger;
    signal: AbortSignal | undefined;
    progress: DriverProgress;
    warmPage?: boolean;
    framesLeft?: FramesLeft | null;
  }) {
    this.page = parts.page;
    this.tap = parts.tap;
    this.flowHost = parts.flowHost;
    this.logger = parts.logger;
    this.signal = parts.signal;
    this.progress = parts.progress;
    this.warmPage = parts.warmPage ?? false;
    this.framesLeft = this.warmPage ? (parts.framesLeft ?? null) : null;
    const page = parts.page;
    this.#onClose = () => {
      this.#closedReason = 'the browser page closed';
    };
    page.once('close', this.#onClose);
  }

  dispose(): void {
    this.page.off('close', this.#onClose);
  }

  get closed(): boolean {
    return this.#closedReason !== null || this.page.isClosed();
  }

  report(event: Omit<DriverProgressEvent, 'mayHaveSpent'>): void {
    const warn = (error: unknown): void =>
      this.logger.warn('onProgress threw', { error: error instanceof Error ? error.message : String(error) });
    try {
      const answered = this.progress({ ...event, mayHaveSpent: this.afterSubmit });
      if (answered instanceof Promise) answered.catch(warn);
    } catch (error) {
      warn(error);
    }
  }

  /**
   * Reports `submitting` and waits for the caller to have written it (core writes may_have_spent on
   * the task row before Flow can bill); then, and only then, the operation may spend. A caller that
   * throws or rejects stops the click: the row that guards it was not written, or is no longer this
   * run's (another worker took it over), so nothing is submitted.
   */
  async reportSubmitting(): Promise<void> {
    await this.progress({ phase: 'submitting', mayHaveSpent: true });
    this.afterSubmit = true;
  }

  /** Extensions every post-submit error carries. */
  spendExtensions(): Record<string, unknown> {
    return this.afterSubmit ? { may_have_spent: true } : {};
  }

  /** Throws for cancellation, a closed browser, or a page that left Flow (every blocking point). */
  check(what: string): void {
    if (this.signal?.aborted === true) throw cancelled(this.signal, what, this.spendExtensions());
    if (this.closed) throw this.closedError(what);
    if (!this.landingChecks) return;
    const err = landingError(this.page.url(), this.flowHost, { afterSubmit: this.afterSubmit });
    if (err !== null) throw err;
  }

  closedError(what: string, cause?: unknown): BrowserSessionClosedError {
    return new BrowserSessionClosedError(
      `The browser closed while ${what}${this.afterSubmit ? '; the submit had been clicked, so credits may have been spent — check the Flow project before retrying' : ''}.`,
      { cause, extensions: this.spendExtensions(), ...(this.afterSubmit ? { retryable: false } : {}) },
    );
  }

  /** Maps a Playwright failure (closed target, timeout) into the taxonomy; gflow errors pass through. */
  mapError(error: unknown, what: string): unknown {
    if (isGflowError(error)) return error;
    const message = error instanceof Error ? error.message : String(error);
    if (
      this.closed ||
      /Target (page, context or browser )?(has been )?closed|browser has been closed|Browser closed|Target crashed|has been closed/i.test(
        message,
      )
    ) {
      return this.closedError(what, error);
    }
    return error;
  }

  /**
   * Waits for a tap event matching `pick` (which may throw to fail the wait). Rejects on
   * timeout (TransportTimeoutError, built by `onTimeout`), cancellation, a closed page, or a
   * landing off Flow (checked every 500 ms).
   */
  waitForTap<T>(
    pick: (event: TapEvent) => T | undefined,
    timeoutMs: number,
    onTimeout: () => Error,
    what: string,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let done = false;
      const finish = (fn: () => void): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        clearInterval(ticker);
        unsubscribe();
        this.signal?.removeEventListener('abort', onAbort);
        this.page.off('close', onClose);
        fn();
      };
      const unsubscribe = this.tap.subscribe((event) => {
        try {
          const value = pick(event);
          if (value !== undefined) finish(() => resolve(value));
        } catch (error) {
          finish(() => reject(error));
        }
      });
      const timer = setTimeout(() => finish(() => reject(onTimeout())), timeoutMs);
      const ticker = setInterval(() => {
        try {
          this.check(what);
        } catch (error) {
          finish(() => reject(error));
        }
      }, 500);
      const onAbort = (): void => finish(() => reject(cancelled(this.signal, what, this.spendExtensions())));
      const onClose = (): void => finish(() => reject(this.closedError(what)));
      this.signal?.addEventListener('abort', onAbort, { once: true });
      this.page.once('close', onClose);
      if (this.signal?.aborted === true) onAbort();
    });
  }

  timeout(detail: string): TransportTimeoutError {
    return new TransportTimeoutError(`${detail} (rpcs seen: ${this.tap.seenRpcIds().join(', ') || 'none'}).`, {
      extensions: this.spendExtensions(),
      ...(this.afterSubmit ? { retryable: false } : {}),
    });
  }
}

/**
 * The Frames chips an operation left bound after its guarded submit (a composer that keeps them,
 * flow-sim `composerAfterSubmit` [U]): each bound chip's thumbnail src in page order, and the media
 * ids that submit's body carried for them (Start, then End). The next run on the kept page keeps
 * them when they are still exactly these and its own frames (composer/warmPage `framesStillLeft`).
 */
export interface FramesLeft {
  readonly thumbs: readonly string[];
  readonly mediaIds: readonly string[];
}
