import {
  AuthExpiredError,
  ConfigurationError,
  ContentPolicyError,
  FlowAccessUnavailableError,
  FlowAppError,
  type GflowError,
  InsufficientCreditsError,
  UpscaleUnavailableError,
  WafRejectionError,
  WireFormatError,
} from '@gflow/errors';

/** The upscale rpcs: image 2K/4K (`SPrCad`) and video 1080p (`p0UkFb`). */
const UPSCALE_RPCS: readonly string[] = ['SPrCad', 'p0UkFb'];

/** A refusal reason that names a content or safety policy ([U]: no such refusal was captured, flow-captures.md §6). */
const POLICY_REASON = /POLICY|SAFETY|RESPONSIBLE_AI|PROHIBITED/;

/**
 * A refusal frame: a `wrb.fr` item whose slot [5] holds a gRPC-style status
 * (`[code, null, [[ "type.googleapis.com/google.rpc.ErrorInfo", [reason] ]]]`), HTTP 200.
 */
export interface Refusal {
  readonly code: number;
  readonly reasons: readonly string[];
}

/** Reads a refusal out of an item's error slot; null when the slot holds none. */
export function readRefusal(error: unknown): Refusal | null {
  if (error === null || error === undefined) return null;
  if (typeof error === 'number') return { code: error, reasons: [] };
  if (!Array.isArray(error)) return { code: 13, reasons: [] };
  const code = typeof error[0] === 'number' ? error[0] : 13;
  const reasons: string[] = [];
  collectStrings(error.slice(1), reasons);
  return { code, reasons: reasons.filter((r) => /^[A-Z][A-Z0-9_]+$/.test(r)) };
}

function collectStrings(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) collectStrings(v, out);
}

export interface RefusalContext {
  readonly rpcId: string;
  /** True once the submit was clicked: a FlowAppError is then not retryable (it may have been billed). */
  readonly afterSubmit: boolean;
}

/**
 * flow-wire §3a / §6: a policy reason → content policy (5); an upscale's 7 → upscale unavailable
 * (22), its other refusals → wire format (7); then 16 → auth (3); 7 with PUBLIC_ERROR_UNUSUAL_ACTIVITY → WAF (10), other 7 →
 * access unavailable (39); 8 → insufficient credits (37); 3 → configuration (11); 13 and any
 * other → Flow app error (31).
 */
export function refusalToError(refusal: Refusal, context: RefusalContext): GflowError {
  const tag = `${context.rpcId} answered with status ${refusal.code}${refusal.reasons.length > 0 ? ` (${refusal.reasons.join(', ')})` : ''}`;
  const extensions = { flow_rpc: context.rpcId, flow_status: refusal.code };
  // Content policy only when Flow's refusal says so (flow-captures.md §6), never from an empty reply.
  if (refusal.reasons.some((r) => POLICY_REASON.test(r))) {
    return new ContentPolicyError(`Flow refused the request on policy grounds: ${tag}.`, { extensions });
  }
  // An upscale refusal is about the media or the plan, never "this account cannot reach Flow" (§9).
  if (UPSCALE_RPCS.includes(context.rpcId) && refusal.code !== 16 && refusal.code !== 8) {
    if (refusal.code === 7) {
      return new UpscaleUnavailableError(`Flow does not offer this upscale on this account: ${tag}.`, { extensions });
    }
    return new WireFormatError(`Flow refused the upscale in a way gflow does not know: ${tag}.`, {
      extensions,
      retryable: false,
    });
  }
  switch (refusal.code) {
    case 16:
      return new AuthExpiredError(`Flow says the session is not authenticated: ${tag}.`, { extensions });
    case 7:
      if (refusal.reasons.includes('PUBLIC_ERROR_UNUSUAL_ACTIVITY')) {
        return new WafRejectionError(
          `Flow flagged unusual activity (reCAPTCHA/bot score): ${tag}. Nothing was generated.`,
          { extensions },
        );
      }
      return new FlowAccessUnavailableError(`Flow denied permission: ${tag}.`, { extensions });
    case 8:
      return new InsufficientCreditsError(`Flow refused for lack of credits or quota: ${tag}.`, { extensions });
    case 3:
      return new ConfigurationError(
        `Flow rejected the request's arguments: ${tag}. Check the model, duration, aspect and references.`,
        { extensions },
      );
    default:
      return new FlowAppError(
        `Flow refused the request: ${tag}.${context.afterSubmit ? ' The job may still have been queued and billed; check the Flow project before retrying.' : ''}`,
        { extensions, ...(context.afterSubmit ? { retryable: false } : {}) },
      );
  }
}
