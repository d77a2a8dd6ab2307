import type { Page, Response } from 'playwright-core';
import {
  AuthExpiredError,
  FlowAppError,
  type GflowError,
  NetworkError,
  RateLimitError,
  TransportTimeoutError,
  WafRejectionError,
  WireFormatError,
} from '@gflow/errors';
import { type ParsedEnvelope, type WireItem, parseBatchexecute } from '../wire/batchexecute.js';
import { isBatchexecuteUrl, rpcIdsOfRequest } from '../wire/formBody.js';
import { readRefusal, refusalToError } from '../wire/refusal.js';
import { cancelled } from '../util/abort.js';

/** One batchexecute reply the page received for an rpc id. */
export interface RpcReply {
  readonly rpcId: string;
  readonly status: number;
  readonly envelope: ParsedEnvelope | null;
  /** The first `wrb.fr`/`er` item of that rpc id, or null. */
  readonly item: WireItem | null;
}

export interface ExpectRpcOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  /** Only replies whose request's form body passes this test (e.g. names the media id). */
  readonly requestBody?: (body: string) => boolean;
}

/**
 * Starts listening for the page's own reply to `rpcId` before the UI action that causes it.
 * The driver only listens; Flow's page sends the request. The promise never rejects unhandled.
 */
export function expectRpcReply(page: Page, rpcId: string, options: ExpectRpcOptions): Promise<RpcReply> {
  const matches = (response: Response): boolean => {
    const request = response.request();
    if (request.method() !== 'POST' || !isBatchexecuteUrl(request.url())) return false;
    const body = request.postData();
    if (!rpcIdsOfRequest(request.url(), body).includes(rpcId)) return false;
    return (
      options.requestBody === undefined || options.requestBody(decodeURIComponent((body ?? '').replace(/\+/g, ' ')))
    );
  };
  // The body is read inside the listener, at once: the page may navigate right after the reply
  // (jHPbke opens the new project), and a late read would find the body gone.
  const waiting = new Promise<RpcReply>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(
        new TransportTimeoutError(
          `Flow's page sent no ${rpcId} reply within ${Math.round(options.timeoutMs / 1000)} s.`,
          { extensions: { flow_rpc: rpcId } },
        ),
      );
    }, options.timeoutMs);
    const onClose = (): void => {
      cleanup();
      reject(
        new TransportTimeoutError(`The page closed before Flow's ${rpcId} reply arrived.`, {
          extensions: { flow_rpc: rpcId },
        }),
      );
    };
    const onResponse = (response: Response): void => {
      if (!matches(response)) return;
      cleanup();
      response
        .text()
        .then((text) => parseBatchexecute(text))
        .catch(() => null)
        .then(
          (envelope) =>
            resolve({
              rpcId,
              status: response.status(),
              envelope,
              item: envelope?.items.find((i) => i.rpcId === rpcId) ?? null,
            }),
          reject,
        );
    };
    const cleanup = (): void => {
      clearTimeout(timer);
      page.off('response', onResponse);
      page.off('close', onClose);
    };
    page.on('response', onResponse);
    page.once('close', onClose);
  });
  const result = options.signal === undefined ? waiting : Promise.race([waiting, aborted(options.signal)]);
  result.catch(() => undefined);
  return result;
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(cancelled(signal, 'waiting for Flow'));
    signal.addEventListener('abort', () => reject(cancelled(signal, 'waiting for Flow')), { once: true });
  });
}

/** The decoded payload of a reply, or the error its HTTP status, refusal frame or shape means. */
export function payloadOf(reply: RpcReply): unknown {
  const httpError = httpStatusError(reply.status, reply.rpcId);
  if (httpError !== null) throw httpError;
  if (reply.item === null)
    throw new WireFormatError(`Flow's ${reply.rpcId} reply carried no item for that rpc.`, {
      extensions: { flow_rpc: reply.rpcId },
    });
  const refusal = readRefusal(reply.item.error);
  if (refusal !== null) throw refusalToError(refusal, { rpcId: reply.rpcId, afterSubmit: false });
  if (reply.item.payload === undefined)
    throw new WireFormatError(`Flow's ${reply.rpcId} reply payload is not JSON.`, {
      extensions: { flow_rpc: reply.rpcId },
    });
  return reply.item.payload;
}

export function httpStatusError(status: number, rpcId: string): GflowError | null {
  if (status === 200) return null;
  const extensions = { flow_rpc: rpcId, http_status: status };
  if (status === 401) return new AuthExpiredError(`Flow answered ${rpcId} with HTTP 401.`, { extensions });
  if (status === 429) return new RateLimitError(`Flow answered ${rpcId} with HTTP 429.`, { extensions });
  if (status === 403) return new WafRejectionError(`Flow answered ${rpcId} with HTTP 403.`, { extensions });
  if (status >= 500) return new NetworkError(`Flow answered ${rpcId} with HTTP ${status}.`, { extensions });
  return new FlowAppError(`Flow answered ${rpcId} with HTTP ${status}.`, { extensions });
}
