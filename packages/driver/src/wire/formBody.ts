/**
 * Decoding of batchexecute request bodies (flow-wire §3a). The body is form-encoded:
 * `f.req=<urlencoded JSON [[["<ID>","<inner JSON>",null,"generic"], …]]>&at=<csrf>`.
 * The interpolation submit `nprQif` carries no `rpcids` query parameter, so the rpc id is
 * read from the head of `f.req`, never from the URL alone.
 */
export interface DecodedCall {
  readonly rpcId: string;
  /** The inner JSON string as sent. */
  readonly innerJson: string;
  /** The inner JSON parsed; `undefined` when it is not JSON. */
  readonly inner: unknown;
}

export interface DecodedFormBody {
  /** The form-decoded `f.req` value ('' when absent). */
  readonly fReq: string;
  readonly calls: readonly DecodedCall[];
}

const HEAD = /^\[\[\["([A-Za-z0-9]+)"/;

/** Decodes a form-encoded batchexecute body; never throws (unknown shapes give no calls). */
export function decodeFormBody(body: string): DecodedFormBody {
  let fReq = '';
  try {
    fReq = new URLSearchParams(body).get('f.req') ?? '';
  } catch {
    fReq = '';
  }
  return { fReq, calls: decodeFReq(fReq) };
}

function decodeFReq(fReq: string): DecodedCall[] {
  if (fReq === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(fReq);
  } catch {
    const head = HEAD.exec(fReq);
    return head?.[1] === undefined ? [] : [{ rpcId: head[1], innerJson: '', inner: undefined }];
  }
  if (!Array.isArray(parsed) || !Array.isArray(parsed[0])) return [];
  const calls: DecodedCall[] = [];
  for (const call of parsed[0] as unknown[]) {
    if (!Array.isArray(call) || typeof call[0] !== 'string') continue;
    const innerJson = typeof call[1] === 'string' ? call[1] : '';
    calls.push({ rpcId: call[0], innerJson, inner: parseJson(innerJson) });
  }
  return calls;
}

/** The rpc ids a batchexecute request carries: from the body's f.req head, else the URL. */
export function rpcIdsOfRequest(url: string, body: string | null): string[] {
  const fromBody = body === null ? [] : decodeFormBody(body).calls.map((c) => c.rpcId);
  if (fromBody.length > 0) return fromBody;
  try {
    const param = new URL(url).searchParams.get('rpcids');
    return param === null || param === '' ? [] : param.split(',');
  } catch {
    return [];
  }
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Whether a URL is Flow's batchexecute endpoint on flow.google.com. */
export function isBatchexecuteUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && u.hostname === 'flow.google.com' && u.pathname.endsWith('/data/batchexecute');
  } catch {
    return false;
  }
}
