/**
 * batchexecute framing (flow-wire §3a): `)]}'`, a blank line, then length lines alternating
 * with JSON-array lines; items `["wrb.fr", rpcid, payloadJson, null, null, error|null, "generic"]`,
 * then `["di", N]`, `["af.httprm", N, id, 5]` and the closing `[["e", 4, null, null, total]]`.
 */
export interface WireItem {
  rpcId: string;
  /** The payload, JSON-encoded into the item's string slot; null sends a null payload. */
  payload: unknown;
  /** gRPC-style error in slot [5], e.g. [7, null, [[type, [reason]]]] or [5]. */
  error?: unknown[];
}

function chunk(line: string): string {
  return `${Buffer.byteLength(line, 'utf8')}\n${line}\n`;
}

export function encodeEnvelope(items: WireItem[], reqId: number): string {
  let out = ")]}'\n\n";
  let total = 0;
  const lines = items.map((item) =>
    JSON.stringify([
      [
        'wrb.fr',
        item.rpcId,
        item.payload === null ? null : JSON.stringify(item.payload),
        null,
        null,
        item.error ?? null,
        'generic',
      ],
    ]),
  );
  lines.push(
    JSON.stringify([
      ['di', 40 + (reqId % 300)],
      ['af.httprm', 39 + (reqId % 300), `${-(reqId * 7919) % 1e9}`, 5],
    ]),
  );
  for (const line of lines) {
    out += chunk(line);
    total += 1;
  }
  out += chunk(JSON.stringify([['e', 4, null, null, total + 1]]));
  return out;
}

/** The error slot for a refusal frame: [code, null, [[ErrorInfo, [reason]]]]. */
export function refusalError(code: number, reason?: string): unknown[] {
  if (reason === undefined) return [code];
  return [code, null, [['type.googleapis.com/google.rpc.ErrorInfo', [reason]]]];
}

export interface DecodedCall {
  rpcId: string;
  inner: string;
  fReq: string;
}

/** Decodes `f.req` (already form-decoded): `[[["<ID>","<inner>",null,"generic"], ...]]`. */
export function decodeFreq(fReq: string): DecodedCall[] {
  const parsed: unknown = JSON.parse(fReq);
  if (!Array.isArray(parsed) || !Array.isArray(parsed[0])) throw new Error('f.req is not [[...]]');
  const out: DecodedCall[] = [];
  for (const call of parsed[0] as unknown[]) {
    if (!Array.isArray(call) || typeof call[0] !== 'string' || typeof call[1] !== 'string')
      throw new Error('bad f.req call');
    out.push({ rpcId: call[0], inner: call[1], fReq });
  }
  return out;
}
