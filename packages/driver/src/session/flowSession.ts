import type { BrowserContext, Page } from 'playwright-core';
import { BrowserSessionClosedError, hasErrorCode, isGflowError } from '@gflow/errors';
import type { OpenTimeouts } from '../composer/openProject.js';
import { type DownloadedMedia, downloadMedia } from '../download/download.js';
import type { FlowHostSetting } from '../flow/hosts.js';
import { landingError } from '../flow/landingError.js';
import { generateImage } from '../generate/generateImage.js';
import { generateVideo } from '../generate/generateVideo.js';
import { readPageFacts, withPageFacts } from '../projects/pageFacts.js';
import { extendVideo } from '../extend/extendVideo.js';
import type { ExtendVideoRequest, FlowExtensionResult } from '../extend/extendTypes.js';
import { prepareComposer } from '../generate/prepare.js';
import { type FlowCheckReport, type FlowCheckRequest, checkFlow } from '../canary/checkFlow.js';
import { explainPublicLanding } from '../account/publicLanding.js';
import { readUploadable, uploadFile } from '../composer/uploads.js';
import type { GenerateImageRequest, GenerateVideoRequest, FlowGenerationResult } from '../generate/types.js';
import { checkFindRequest, findSubmitted } from '../recover/findSubmitted.js';
import { checkFollowRequest, followMedia } from '../recover/followMedia.js';
import type { FindSubmittedRequest, FollowMediaRequest, SubmittedLookup } from '../recover/types.js';
import type { DriverLogger } from '../util/logger.js';
import { type LastOperation, capturePage } from './capturePage.js';
import type { IncidentSnapshot } from './incidentSnapshot.js';
import { OpContext, type DriverProgress } from './opContext.js';
import { WireTap } from './wireTap.js';

export interface SessionTimeouts {
  /** `page.goto` budget (default 60 s). */
  readonly navigationMs?: number;
  /** Editor readiness after navigation (default 45 s; Flow settles in 11–15 s). */
  readonly readyMs?: number;
  /** The page's `maseQ` reply to an upload (default 60 s). */
  readonly uploadMs?: number;
  /** How long a done clip may lack its mp4 URL before giving up (default 20 s). */
  readonly urlGraceMs?: number;
}

export interface UploadImageRequest {
  readonly path: string;
  readonly projectId?: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: DriverProgress;
}

export interface UploadImageResult {
  readonly projectId: string;
  readonly mediaId: string;
  /** The run-unique name Flow lists the upload under. */
  readonly displayName: string;
  /** The project's title as its header shows it, or null. */
  readonly projectTitle: string | null;
}

export interface CheckFlowRequest extends FlowCheckRequest {
  readonly signal?: AbortSignal;
  readonly onProgress?: DriverProgress;
}

export interface DownloadRequest {
  readonly kind: 'image' | 'video';
  readonly fallbackUrl?: string | null;
  readonly expectedBytes?: number | null;
  readonly mediaId?: string;
  readonly signal?: AbortSignal;
}

/**
 * How long a page left by a successful operation stays reusable without a navigation. A policy,
 * not a measurement: Flow ships web releases and re-checks its session on a page load, so a page
 * idle longer than this is loaded afresh.
 */
const WARM_PAGE_IDLE_MS = 10 * 60_000;

/**
 * One warm browser context on one profile. Operations run one at a time; the session can be kept
 * by a daemon and reused. A browser that dies closes the session (BrowserSessionClosedError).
 */
export class FlowSession {
  readonly #context: BrowserContext;
  readonly #logger: DriverLogger;
  readonly #flowHost: FlowHostSetting;
  readonly #timeouts: OpenTimeouts;
  readonly #closedHooks = new Set<(reason: string) => void>();
  #closed = false;
  #closeReason = '';
  #queue: Promise<unknown> = Promise.resolve();
  #page: Page | null = null;
  /** When the last operation succeeded on #page (null: the page is fresh, or the last operation failed on it). */
  #pageSucceededAt: number | null = null;
  /** What the last operation that succeeded on #page left bound in its Frames chips (OpContext.framesLeft). */
  #framesLeft: OpContext['framesBound'] = null;
  readonly #incidentCapture: boolean;
  #lastOp: LastOperation | null = null;
  /** What the last operation failed with, and its page as it was then (null when not captured). */
  #lastFailure: { readonly error: unknown; snapshot: IncidentSnapshot | null } | null = null;

  constructor(
    context: BrowserContext,
    options: { logger: DriverLogger; flowHost: FlowHostSetting; timeouts?: SessionTimeouts; incidentCapture?: boolean },
  ) {
    this.#context = context;
    this.#incidentCapture = options.incidentCapture ?? true;
    this.#logger = options.logger;
    this.#flowHost = options.flowHost;
    this.#timeouts = {
      navigationMs: options.timeouts?.navigationMs ?? 60_000,
      readyMs: options.timeouts?.readyMs ?? 45_000,
      uploadMs: options.timeouts?.uploadMs ?? 60_000,
      urlGraceMs: options.timeouts?.urlGraceMs ?? 20_000,
    };
    context.on('close', () => this.#markClosed('the browser closed'));
    context.browser()?.on('disconnected', () => this.#markClosed('the browser disconnected'));
  }

  get isClosed(): boolean {
    return this.#closed;
  }

  /** Registers a hook called once when the session closes (by close() or a dying browser). Returns an unsubscribe. */
  onClosed(hook: (reason: string) => void): () => void {
    if (this.#closed) {
      hook(this.#closeReason);
      return () => undefined;
    }
    this.#closedHooks.add(hook);
    return () => this.#closedHooks.delete(hook);
  }

  /** The underlying context, for callers that need cookies or tracing (not for driving Flow). */
  get context(): BrowserContext {
    return this.#context;
  }

  #markClosed(reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#closeReason = reason;
    for (const hook of this.#closedHooks) {
      try {
        hook(reason);
      } catch (error) {
        this.#logger.warn('onClosed hook threw', { error: error instanceof Error ? error.message : String(error) });
      }
    }
    this.#closedHooks.clear();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#context.close().catch(() => undefined);
    this.#markClosed('closed by the caller');
  }

  async #livePage(): Promise<Page> {
    if (this.#closed) throw new BrowserSessionClosedError(`The browser session is closed (${this.#closeReason}).`);
    if (this.#page === null || this.#page.isClosed()) {
      const open = this.#context.pages().filter((p) => !p.isClosed());
      this.#pageSucceededAt = null;
      try {
        this.#page = open[0] ?? (await this.#context.newPage());
      } catch (error) {
        throw new BrowserSessionClosedError('The browser session could not open a page.', { cause: error });
      }
    }
    return this.#page;
  }

  /** Runs one operation at a time with a fresh wire tap and context. */
  async #run<T>(
    what: string,
    signal: AbortSignal | undefined,
    onProgress: DriverProgress | undefined,
    body: (ctx: OpContext) => Promise<T>,
  ): Promise<T> {
    const previous = this.#queue;
    let release: () => void = () => undefined;
    this.#queue = new Promise<void>((resolve) => (release = resolve));
    await previous.catch(() => undefined);
    try {
      const page = await this.#livePage();
      const tap = new WireTap(page, this.#logger);
      this.#lastOp = { what, page, tap };
      this.#lastFailure = null;
      const succeededAt = this.#pageSucceededAt;
      const framesLeft = this.#framesLeft;
      // Never reuse a page an operation failed on: the next one navigates (or reloads) it.
      this.#pageSucceededAt = null;
      this.#framesLeft = null;
      const ctx = new OpContext({
        page,
        tap,
        flowHost: this.#flowHost,
        logger: this.#logger,
        signal,
        progress: onProgress ?? (() => undefined),
        warmPage: succeededAt !== null && Date.now() - succeededAt < WARM_PAGE_IDLE_MS,
        framesLeft,
      });
      try {
        const result = await body(ctx);
        this.#pageSucceededAt = Date.now();
        this.#framesLeft = ctx.framesBound;
        return result;
      } catch (error) {
        const mapped = ctx.mapError(error, what);
        if (!isGflowError(mapped) && this.#closed) throw ctx.closedError(what, error);
        // /about has two causes: a signed-out profile (exit 3) or an identity re-check (31).
        const final = this.#closed ? mapped : await explainPublicLanding(this.#context, mapped);
        await this.#snapshotFailure(final, signal);
        throw final;
      } finally {
        tap.detach();
        ctx.dispose();
        if (!page.isClosed()) await page.keyboard.press('Escape').catch(() => undefined);
      }
    } finally {
      release();
    }
  }

  /** Photographs the failed operation's page before the finally tidies it (Escape closes dialogs). */
  async #snapshotFailure(error: unknown, signal: AbortSignal | undefined): Promise<void> {
    const failure: { readonly error: unknown; snapshot: IncidentSnapshot | null } = { error, snapshot: null };
    this.#lastFailure = failure;
    const last = this.#lastOp;
    if (!this.#incidentCapture || last === null || this.#closed || signal?.aborted === true) return;
    if (hasErrorCode(error, 'cancelled') || hasErrorCode(error, 'browser-session-closed')) return;
    // A refusal of the caller's submit hook (a credit budget) is not the page's failure.
    if (hasErrorCode(error, 'budget-exceeded')) return;
    failure.snapshot = await capturePage(last, true).catch(() => null);
  }

  /** True when `error` is what the last operation on this session failed with (it happened in the browser). */
  failedInOperation(error: unknown): boolean {
    return this.#lastFailure !== null && this.#lastFailure.error === error;
  }

  /**
   * What a human needs to diagnose a failure: the page the last operation used (URL, title,
   * anchor counts, a full-page screenshot) and its redacted rpc log. When `error` is omitted or is
   * what that operation failed with, the snapshot taken at the failure (before the driver tidied
   * the page) is handed out, once; otherwise the last operation's page is captured now. Null when
   * no operation ran or its page (or the browser) is gone. Never throws.
   */
  async captureIncident(error?: unknown): Promise<IncidentSnapshot | null> {
    try {
      const failure = this.#lastFailure;
      if (failure?.snapshot && (error === undefined || error === failure.error)) {
        const snapshot = failure.snapshot;
        failure.snapshot = null;
        return snapshot;
      }
      const last = this.#lastOp;
      if (last === null || this.#closed || last.page.isClosed()) return null;
      return await capturePage(last, false);
    } catch {
      return null;
    }
  }

  generateImage(request: GenerateImageRequest): Promise<FlowGenerationResult> {
    return this.#run('generating an image', request.signal, request.onProgress, async (ctx) =>
      withPageFacts(ctx, await generateImage(ctx, request, this.#timeouts)),
    );
  }

  generateVideo(request: GenerateVideoRequest): Promise<FlowGenerationResult> {
    return this.#run('generating a video', request.signal, request.onProgress, async (ctx) =>
      withPageFacts(ctx, await generateVideo(ctx, request, this.#timeouts)),
    );
  }

  /**
   * Extends a finished clip in Flow's scene editor (flow-captures.md §10): the clip onto a scene,
   * the timeline's `+` → the model's Extend entry, the prompt, the quote to `beforeSubmit`, the
   * click; the page's `fZytfe` leaves only when its source slot is the clip's workflow id and its
   * frame window the clip's last second (else WireFormatError 7, nothing sent). Reports
   * `submitting` before the click; follows `as29s` / `jwpduf` to the new clip's signed URL.
   */
  extendVideo(request: ExtendVideoRequest): Promise<FlowExtensionResult> {
    return this.#run('extending a video', request.signal, request.onProgress, (ctx) =>
      extendVideo(ctx, request, this.#timeouts),
    );
  }

  /**
   * Follows media a submit already created (its ids known, from the reply or a checkpoint) to a
   * state it can be downloaded in, without submitting anything: a clip still generating is waited
   * for through the page's own polls until done with its URL (or failed: ContentPolicyError,
   * FlowAppError); an image is done once its project shows it. Items carry signed URLs for
   * {@link download}; `recovered: true`. An id the project does not list is ReferenceNotFoundError.
   */
  followMedia(request: FollowMediaRequest): Promise<FlowGenerationResult> {
    try {
      checkFollowRequest(request);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    const what = `following ${request.kind === 'video' ? 'a clip' : 'an image'} already submitted`;
    return this.#run(what, request.signal, request.onProgress, async (ctx) =>
      withPageFacts(ctx, await followMedia(ctx, request, this.#timeouts)),
    );
  }

  /**
   * Finds the media of a submit whose reply was never read (its ids unknown) in its project's
   * listing, without submitting anything: `found` (exactly `count` new media), `none`, or
   * `ambiguous`. A listing gflow does not recognise is WireFormatError (7); a project still
   * making something after `timeoutMs` is TransportTimeoutError (look again later).
   */
  findSubmitted(request: FindSubmittedRequest): Promise<SubmittedLookup> {
    try {
      checkFindRequest(request);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    const what = `looking for the ${request.kind} of a submit whose reply was never read`;
    return this.#run(what, request.signal, undefined, (ctx) => findSubmitted(ctx, request, this.#timeouts));
  }

  /**
   * Uploads one local image into a project (created when none is given) the way a person does:
   * toolbar `+` → Upload → file chooser, under a run-unique display name; the media id comes from
   * the page's own `maseQ` reply. Spends nothing.
   */
  uploadImage(request: UploadImageRequest): Promise<UploadImageResult> {
    return this.#run('uploading an image', request.signal, request.onProgress, async (ctx) => {
      await readUploadable(request.path);
      const { projectId } = await prepareComposer(ctx, request.projectId, this.#timeouts, 'uploading an image');
      ctx.report({ phase: 'uploading', projectId });
      const uploaded = await uploadFile(
        ctx,
        request.path,
        this.#timeouts.uploadMs === undefined ? {} : { timeoutMs: this.#timeouts.uploadMs },
      );
      ctx.report({ phase: 'done', projectId, mediaIds: [uploaded.mediaId] });
      const facts = await readPageFacts(ctx.page).catch(() => null);
      return {
        projectId,
        mediaId: uploaded.mediaId,
        displayName: uploaded.displayName,
        projectTitle: facts?.title ?? null,
      };
    });
  }

  /**
   * The free live canary (canary/checkFlow.ts): walks every control a generation needs on the
   * scratch project (created once when none is given or it is gone) and reads the replies met on
   * the way, submitting nothing. Drift is a finding in the report, not an error; a page that leaves
   * Flow (signed out, no access) fails as any operation does.
   */
  checkFlow(request: CheckFlowRequest): Promise<FlowCheckReport> {
    return this.#run('checking Flow', request.signal, request.onProgress, (ctx) =>
      checkFlow(ctx, request, this.#timeouts),
    );
  }

  /** Downloads a signed media URL through the context (cookies attach; no page needed). */
  async download(url: string, request: DownloadRequest): Promise<DownloadedMedia> {
    if (this.#closed) throw new BrowserSessionClosedError(`The browser session is closed (${this.#closeReason}).`);
    return downloadMedia(this.#context.request, url, {
      kind: request.kind,
      logger: this.#logger,
      ...(request.fallbackUrl === undefined ? {} : { fallbackUrl: request.fallbackUrl }),
      ...(request.expectedBytes === undefined ? {} : { expectedBytes: request.expectedBytes }),
      ...(request.mediaId === undefined ? {} : { mediaId: request.mediaId }),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    });
  }

  /** Throws if the session's page has left Flow (for callers holding the session between steps). */
  async assertStillOnFlow(): Promise<void> {
    const page = await this.#livePage();
    const err = landingError(page.url(), this.#flowHost);
    if (err !== null && page.url() !== 'about:blank') throw err;
  }
}
