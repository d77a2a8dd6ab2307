import type { Page, Request, Response } from 'playwright-core';
import { type ParsedEnvelope, parseBatchexecute } from '../wire/batchexecute.js';
import { type DecodedCall, decodeFormBody, isBatchexecuteUrl, rpcIdsOfRequest } from '../wire/formBody.js';
import type { DriverLogger } from '../util/logger.js';

/** One batchexecute request the page sent. */
export interface TappedRequest {
  readonly seq: number;
  readonly at: number;
  readonly rpcIds: readonly string[];
  readonly calls: readonly DecodedCall[];
  readonly request: Request;
}

/** One batchexecute reply the page received. */
export interface TappedResponse {
  readonly seq: number;
  readonly at: number;
  readonly rpcIds: readonly string[];
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** null when the body could not be read (page closed, aborted). */
  readonly envelope: ParsedEnvelope | null;
  readonly request: Request;
}

/** One batchexecute request that failed without a reply (aborted, connection reset). */
export interface TappedFailure {
  readonly at: number;
  readonly rpcIds: readonly string[];
  readonly request: Request;
  readonly errorText: string;
}

export type TapEvent =
  | { readonly type: 'request'; readonly value: TappedRequest }
  | { readonly type: 'response'; readonly value: TappedResponse }
  | { readonly type: 'failed'; readonly value: TappedFailure };

type Listener = (event: TapEvent) => void;

/**
 * Listens to the page's own batchexecute traffic (flow-wire §3): decodes each request's form
 * body and each reply's envelope. It never sends anything.
 */
export class WireTap {
  readonly requests: TappedRequest[] = [];
  readonly responses: TappedResponse[] = [];
  readonly failures: TappedFailure[] = [];
  #seq = 0;
  readonly #listeners = new Set<Listener>();
  readonly #page: Page;
  readonly #logger: DriverLogger;
  readonly #onRequest = (request: Request): void => this.#request(request);
  readonly #onResponse = (response: Response): void => {
    void this.#response(response);
  };
  readonly #onFailed = (request: Request): void => {
    if (!isBatchexecuteUrl(request.url())) return;
    const rpcIds = rpcIdsOfRequest(request.url(), request.postData());
    const value: TappedFailure = {
      at: Date.now(),
      rpcIds,
      request,
      errorText: request.failure()?.errorText ?? 'failed',
    };
    this.failures.push(value);
    this.#emit({ type: 'failed', value });
  };

  constructor(page: Page, logger: DriverLogger) {
    this.#page = page;
    this.#logger = logger;
    page.on('request', this.#onRequest);
    page.on('response', this.#onResponse);
    page.on('requestfailed', this.#onFailed);
  }

  detach(): void {
    this.#page.off('request', this.#onRequest);
    this.#page.off('response', this.#onResponse);
    this.#page.off('requestfailed', this.#onFailed);
    this.#listeners.clear();
  }

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The rpc ids seen so far (for timeout messages). */
  seenRpcIds(): string[] {
    return [...new Set(this.requests.flatMap((r) => r.rpcIds))];
  }

  /** Requests with any of these rpc ids, sent after sequence number `since`. */
  requestsSince(since: number, rpcIds?: readonly string[]): TappedRequest[] {
    return this.requests.filter(
      (r) => r.seq > since && (rpcIds === undefined || r.rpcIds.some((id) => rpcIds.includes(id))),
    );
  }

  get seq(): number {
    return this.#seq;
  }

  #emit(event: TapEvent): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.#logger.warn('wire tap listener threw', { error: error instanceof Error ? error.message : String(error) });
      }
    }
  }

  #request(request: Request): void {
    if (request.method() !== 'POST' || !isBatchexecuteUrl(request.url())) return;
    const body = request.postData();
    const decoded = body === null ? { calls: [] } : decodeFormBody(body);
    const value: TappedRequest = {
      seq: ++this.#seq,
      at: Date.now(),
      rpcIds: rpcIdsOfRequest(request.url(), body),
      calls: decoded.calls,
      request,
    };
    this.requests.push(value);
    this.#logger.debug('rpc request', { rpcIds: value.rpcIds });
    this.#emit({ type: 'request', value });
  }

  async #response(response: Response): Promise<void> {
    const request = response.request();
    if (request.method() !== 'POST' || !isBatchexecuteUrl(request.url())) return;
    const rpcIds = rpcIdsOfRequest(request.url(), request.postData());
    let envelope: ParsedEnvelope | null = null;
    try {
      envelope = parseBatchexecute(await response.text());
    } catch (error) {
      this.#logger.debug('rpc reply unreadable', {
        rpcIds,
        error: error instanceof Error ? error.message : String(error),
      });
    }
    const value: TappedResponse = {
      seq: ++this.#seq,
      at: Date.now(),
      rpcIds,
      status: response.status(),
      headers: response.headers(),
      envelope,
      request,
    };
    this.responses.push(value);
    this.#logger.debug('rpc reply', { rpcIds, status: value.status });
    this.#emit({ type: 'response', value });
  }
}
