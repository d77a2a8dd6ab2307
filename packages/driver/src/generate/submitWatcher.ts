import type { Request } from 'playwright-core';
import {
  AuthExpiredError,
  NetworkError,
  RateLimitError,
  WafRejectionError,
  WireFormatError,
  redactAndClip,
} from '@gflow/errors';
import type { OpContext } from '../session/opContext.js';
import type { TappedRequest, TappedResponse } from '../session/wireTap.js';
import type { DecodedCall } from '../wire/formBody.js';
import { readRefusal, refusalToError } from '../wire/refusal.js';
import { SUBMIT_RPCS, type SubmitVerdict } from '../wire/submitCheck.js';
import { type SubmitReady, clickSubmit } from './prepare.js';
import { SubmitGuard } from './submitGuard.js';

export interface SubmitSeen {
  readonly call: DecodedCall;
  readonly request: Request;
  readonly verdict: SubmitVerdict;
  /** The redacted form-decoded body, for results and incident bundles. */
  readonly redactedBody: string;
}

function submitCallOf(request: TappedRequest): DecodedCall | undefined {
  return request.calls.find((c) => SUBMIT_RPCS.includes(c.rpcId));
}

export interface GuardedSubmit extends SubmitSeen {
  /** When the submit was clicked (ms since the epoch). */
  readonly clickedAt: number;
}

/** How long the submit watcher waits for the guard's decision on a request it saw leave. */
const GUARD_DECISION_MS = 5_000;

/**
 * Clicks submit behind a SubmitGuard: the page's own submit request is held in the browser and
 * only a body that is the generation asked for (`check`) goes on to Flow. A body that is not is
 * aborted before it leaves — WireFormatError (7), not retryable, nothing sent or billed. `ready`
 * finds the button to click (the composer's submit by default; the scene editor's for an extend).
 */
export async function clickGuardedSubmit(
  ctx: OpContext,
  check: (call: DecodedCall) => SubmitVerdict,
  timeoutMs: number,
  ready?: SubmitReady,
): Promise<GuardedSubmit> {
  const guard = new SubmitGuard(ctx, check);
  await guard.install();
  try {
    const since = await clickSubmit(ctx, ready);
    const clickedAt = Date.now();
    const seen = await awaitSubmitRequest(ctx, since, guard, timeoutMs);
    return { ...seen, clickedAt };
  } finally {
    await guard.remove();
  }
}

/** After the guarded click: waits for the page's own submit request and the guard's verdict on it. */
async function awaitSubmitRequest(
  ctx: OpContext,
  since: number,
  guard: SubmitGuard,
  timeoutMs: number,
): Promise<SubmitSeen> {
  const existing = ctx.tap.requestsSince(since).find((r) => submitCallOf(r) !== undefined);
  const tapped =
    existing ??
    (await ctx.waitForTap(
      (event) =>
        event.type === 'request' && event.value.seq > since && submitCallOf(event.value) !== undefined
          ? event.value
          : undefined,
      timeoutMs,
      () =>
        ctx.timeout(
          `The submit was clicked but no generation request left the page within ${Math.round(timeoutMs / 1000)} s`,
        ),
      'waiting for the submit request',
    ));
  const call = submitCallOf(tapped);
  if (call === undefined) throw new WireFormatError('Internal: the submit request vanished.');
  const guarded = await guard.verdictFor(tapped.request.postData() ?? '', GUARD_DECISION_MS);
  const verdict = guarded ?? guard.check(call);
  const redactedBody = redactAndClip(tapped.calls.map((c) => `${c.rpcId} ${c.innerJson}`).join('\n'), 2_000);
  if (!verdict.ok && guarded !== undefined) {
    // The guard aborted this request in the browser: it never reached Flow.
    ctx.afterSubmit = false;
    throw new WireFormatError(
      `Flow's page prepared a submit that is not the generation asked for: ${verdict.problems.join('; ')}. gflow stopped it before it was sent: nothing reached Flow and nothing was billed.`,
      {
        retryable: false,
        remediationHint:
          'Nothing was sent. The composer did not end up in the state asked for; file an issue with the incident bundle.',
        extensions: {
          may_have_spent: false,
          submit_blocked: true,
          flow_rpc: call.rpcId,
          submit_head: redactAndClip(call.innerJson, 300),
        },
      },
    );
  }
  if (!verdict.ok) {
    // The request left without passing the guard (it should not): it may have been billed.
    throw new WireFormatError(
      `Flow's page sent a submit that is not the generation asked for: ${verdict.problems.join('; ')}. It was already on the wire, so credits may have been spent; check the Flow project.`,
      {
        retryable: false,
        extensions: { ...ctx.spendExtensions(), flow_rpc: call.rpcId, submit_head: redactAndClip(call.innerJson, 300) },
      },
    );
  }
  return { call, request: tapped.request, verdict, redactedBody };
}

/** Waits for the reply to one request and turns HTTP failures and refusal frames into errors. */
export async function awaitReply(ctx: OpContext, seen: SubmitSeen, timeoutMs: number): Promise<unknown> {
  const existing = ctx.tap.responses.find((r) => r.request === seen.request);
  const reply: TappedResponse =
    existing ??
    (await ctx.waitForTap(
      (event) => {
        if (event.type === 'response' && event.value.request === seen.request) return event.value;
        if (event.type === 'failed' && event.value.request === seen.request) {
          throw new NetworkError(
            `The ${seen.call.rpcId} submit failed in transit (${event.value.errorText}); it may still have been billed.`,
            {
              retryable: false,
              extensions: ctx.spendExtensions(),
            },
          );
        }
        return undefined;
      },
      timeoutMs,
      () => ctx.timeout(`No reply to the ${seen.call.rpcId} submit within ${Math.round(timeoutMs / 1000)} s`),
      `waiting for the ${seen.call.rpcId} reply`,
    ));
  return payloadOf(ctx, reply, seen.call.rpcId);
}

export function payloadOf(ctx: OpContext, reply: TappedResponse, rpcId: string): unknown {
  const extensions = { ...ctx.spendExtensions(), flow_rpc: rpcId, http_status: reply.status };
  if (reply.status === 401) throw new AuthExpiredError(`Flow answered ${rpcId} with HTTP 401.`, { extensions });
  if (reply.status === 403)
    throw new WafRejectionError(`Flow answered ${rpcId} with HTTP 403 (WAF/fingerprint).`, { extensions });
  if (reply.status === 429) {
    const after = reply.headers['retry-after'];
    throw new RateLimitError(
      `Flow answered ${rpcId} with HTTP 429${after === undefined ? '' : `; retry after ${after} s`}.`,
      {
        extensions: { ...extensions, ...(after === undefined ? {} : { retry_after: Number(after) }) },
      },
    );
  }
  if (reply.status >= 400) {
    throw new NetworkError(`Flow answered ${rpcId} with HTTP ${reply.status}.`, {
      extensions,
      ...(ctx.afterSubmit ? { retryable: false } : {}),
    });
  }
  const item = reply.envelope?.items.find((i) => i.rpcId === rpcId);
  if (item === undefined) {
    throw new WireFormatError(
      `The ${rpcId} reply carries no ${rpcId} item${reply.envelope === null ? ' (the body could not be read)' : ''}.`,
      {
        retryable: false,
        extensions: { ...extensions, reply_unreadable: true },
      },
    );
  }
  const refusal = readRefusal(item.error);
  if (refusal !== null) {
    throw refusalToError(refusal, { rpcId, afterSubmit: ctx.afterSubmit });
  }
  if (item.payload === undefined)
    throw new WireFormatError(`The ${rpcId} reply payload is not JSON.`, {
      retryable: false,
      extensions: { ...extensions, reply_unreadable: true },
    });
  return item.payload;
}
