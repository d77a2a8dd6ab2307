import type { Req, Res } from '../net/http.js';
import { formDecode, readBody, sendText } from '../net/http.js';
import { dispatchRpc } from '../rpc/dispatch.js';
import type { SimState } from '../state/simState.js';
import { encodeEnvelope } from '../wire/envelope.js';
import { reshapeReply } from '../drift.js';
import { flowSession } from './auth.js';

let reqCounter = 0;

/** POST /_/AiSandboxAngularFrontend/data/batchexecute: cookies + `at=` + `x-same-domain: 1`. */
export async function handleBatchexecute(
  state: SimState,
  req: Req,
  res: Res,
  url: URL,
  hanging: Set<Res>,
): Promise<void> {
  const rawBody = (await readBody(req)).toString('utf8');
  const session = flowSession(state, req);
  if (session === undefined || !session.osid) return sendText(res, 401, 'Unauthorized');
  const { account } = session;
  const form = formDecode(rawBody);
  const fReq = form.get('f.req');
  const at = form.get('at') ?? '';
  if (fReq === null || req.headers['x-same-domain'] !== '1') return sendText(res, 400, 'Bad Request');
  if (at !== state.signer.mint(account.email, account.sessionGeneration, 'at'))
    return sendText(res, 400, 'Bad Request');
  const sourcePath = url.searchParams.get('source-path') ?? '';
  const rpcidsParam = url.searchParams.get('rpcids') ?? '';
  let outcome;
  try {
    outcome = dispatchRpc(state, account, fReq, sourcePath);
  } catch {
    return sendText(res, 400, 'Bad Request');
  }
  const record = {
    at: Date.now() - state.startedAt,
    email: account.email,
    rpcId: outcome.rpcId,
    rpcidsParam,
    sourcePath,
    fReq,
    inner: outcome.inner,
    rawBody,
    at_token: at,
  };
  if (outcome.kind === 'http') {
    state.received.push({ ...record, charged: 0, httpStatus: outcome.status, replyDelayMs: 0 });
    res.writeHead(outcome.status, { 'content-type': 'text/plain; charset=utf-8', ...outcome.headers });
    res.end(outcome.body);
    return;
  }
  const { result } = outcome;
  state.received.push({ ...record, charged: result.charged ?? 0, httpStatus: 200, replyDelayMs: result.delayMs });
  if (outcome.rpcId === 'maseQ' && result.items[0]?.error === undefined) account.uploadTermsAccepted = true;
  if (result.hang === true) {
    hanging.add(res);
    res.on('close', () => hanging.delete(res));
    return;
  }
  reqCounter += 1;
  const items = result.items.map((item) => ({ ...item, payload: reshapeReply(state.drift, item.rpcId, item.payload) }));
  const body =
    result.garbled === true
      ? `)]}'\n\n${encodeEnvelope(items, reqCounter).slice(0, 40)}\u0000\uFFFD`
      : encodeEnvelope(items, Number(url.searchParams.get('_reqid') ?? reqCounter));
  const timer = setTimeout(() => {
    if (res.destroyed) return;
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-cache, no-store, max-age=0, must-revalidate',
      'x-content-type-options': 'nosniff',
    });
    res.end(body);
  }, result.delayMs);
  res.on('close', () => clearTimeout(timer));
}
