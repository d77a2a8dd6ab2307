import type { Account } from '../state/accounts.js';
import { SUBMIT_RPC_IDS } from '../state/received.js';
import type { SimState } from '../state/simState.js';
import type { FailureName } from '../types.js';
import { decodeFreq, refusalError } from '../wire/envelope.js';
import type { WireItem } from '../wire/envelope.js';
import { BRIEF_RPC, saveBrief } from './brief.js';
import { extend } from './extend.js';
import { imageSubmit } from './imageSubmit.js';
import { createProject, emptyReply, renameProject } from './projects.js';
import { RpcRefusal } from './rpcTypes.js';
import type { RpcHandler, RpcResult } from './rpcTypes.js';
import { SCENE_RPC, editScene } from './scene.js';
import { search } from './search.js';
import { upload } from './upload.js';
import { imageUpscale, videoUpscale } from './upscale.js';
import { resultFetch, videoPoll } from './videoPoll.js';
import { videoSubmit } from './videoSubmit.js';

const HANDLERS: Record<string, RpcHandler> = {
  ogiZ0b: imageSubmit,
  YhhmEf: videoSubmit,
  eb1hJf: videoSubmit,
  nprQif: videoSubmit,
  MZZa6b: videoSubmit,
  jwpduf: videoPoll,
  as29s: resultFetch,
  maseQ: upload,
  UpteDb: search,
  jHPbke: createProject,
  o8DA4: renameProject,
  SPrCad: imageUpscale,
  p0UkFb: videoUpscale,
  WuwhI: emptyReply,
  DTaVef: emptyReply,
  [BRIEF_RPC]: saveBrief,
  fZytfe: extend,
  [SCENE_RPC]: editScene,
};

const REFUSALS: [FailureName, number, string | undefined][] = [
  ['unusual_activity', 7, 'PUBLIC_ERROR_UNUSUAL_ACTIVITY'],
  ['resource_exhausted', 8, 'PUBLIC_ERROR_RESOURCE_EXHAUSTED'],
  ['unauthenticated', 16, undefined],
  ['invalid_argument', 3, 'PUBLIC_ERROR_INVALID_ARGUMENT'],
  ['internal_error', 13, undefined],
];

export type DispatchOutcome =
  | {
      kind: 'http';
      status: number;
      headers: Record<string, string>;
      body: string;
      rpcId: string;
      inner: string;
      fReq: string;
    }
  | { kind: 'rpc'; rpcId: string; inner: string; fReq: string; result: RpcResult };

/** Decides the answer to one batchexecute POST (already authenticated). */
export function dispatchRpc(state: SimState, account: Account, fReq: string, sourcePath: string): DispatchOutcome {
  const calls = decodeFreq(fReq);
  const call = calls[0];
  if (call === undefined) throw new Error('empty f.req');
  const { rpcId, inner } = call;
  const isSubmit = SUBMIT_RPC_IDS.includes(rpcId);
  const applies = (name: FailureName): boolean => {
    const opts = state.failures.peek(account.email, name, rpcId);
    if (opts === null) return false;
    if (opts.rpcIds === undefined && !isSubmit && !(name === 'maseq_http_400' && rpcId === 'maseQ')) return false;
    state.failures.take(account.email, name, rpcId);
    return true;
  };
  const base = { rpcId, inner, fReq };
  if (rpcId === 'maseQ' && applies('maseq_http_400'))
    return { kind: 'http', status: 400, headers: {}, body: 'Bad Request', ...base };
  if (applies('http_429')) {
    const retry = state.failures.peek(account.email, 'http_429', rpcId)?.retryAfter ?? 30;
    return { kind: 'http', status: 429, headers: { 'retry-after': String(retry) }, body: 'Too Many Requests', ...base };
  }
  if (applies('http_403')) return { kind: 'http', status: 403, headers: {}, body: 'Forbidden', ...base };
  const fiveOpts = state.failures.peek(account.email, 'http_5xx', rpcId);
  if (applies('http_5xx'))
    return { kind: 'http', status: fiveOpts?.status ?? 503, headers: {}, body: 'Service Unavailable', ...base };
  for (const [name, code, reason] of REFUSALS) {
    if (applies(name)) return { kind: 'rpc', ...base, result: refusal(rpcId, code, reason, state.ms('smallReply')) };
  }
  const handler = HANDLERS[rpcId];
  if (handler === undefined)
    return { kind: 'rpc', ...base, result: refusal(rpcId, 3, 'UNKNOWN_RPC', state.ms('smallReply')) };
  const match = /^\/project\/([^/?]+)/.exec(sourcePath);
  let parsedInner: unknown;
  try {
    parsedInner = JSON.parse(inner);
  } catch {
    return { kind: 'rpc', ...base, result: refusal(rpcId, 3, 'INVALID_ARGUMENT', state.ms('smallReply')) };
  }
  try {
    const result = handler({
      state,
      account,
      rpcId,
      inner: parsedInner,
      sourceProjectId: match?.[1] ?? null,
      now: Date.now(),
    });
    // The job exists and is billed; only its reply cannot be read (seed 000: #1112, #1141).
    if (
      isSubmit &&
      result.items[0]?.error === undefined &&
      state.failures.take(account.email, 'unreadable_submit_reply', rpcId) !== null
    ) {
      return { kind: 'rpc', ...base, result: { ...result, garbled: true } };
    }
    // Test switch: the job exists and is billed, its reply is never sent (a client killed after the click).
    if (
      isSubmit &&
      result.items[0]?.error === undefined &&
      state.failures.take(account.email, 'held_submit_reply', rpcId) !== null
    ) {
      return { kind: 'rpc', ...base, result: { ...result, hang: true } };
    }
    return { kind: 'rpc', ...base, result };
  } catch (error) {
    if (error instanceof RpcRefusal)
      return { kind: 'rpc', ...base, result: refusal(rpcId, error.code, error.reason, state.ms('smallReply')) };
    throw error;
  }
}

function refusal(rpcId: string, code: number, reason: string | undefined, delayMs: number): RpcResult {
  const item: WireItem = { rpcId, payload: null, error: refusalError(code, reason) };
  return { items: [item], delayMs };
}
