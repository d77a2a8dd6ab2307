/** Synthetic wire shapes for unit tests (made-up UUIDs, placeholder URLs). */
export const PROJECT = '11111111-1111-4111-8111-111111111111';
export const WORKFLOW = '22222222-2222-4222-8222-222222222222';
export const MEDIA = '33333333-3333-4333-8333-333333333333';
export const OTHER_WORKFLOW = '44444444-4444-4444-8444-444444444444';
export const OTHER_MEDIA = '55555555-5555-4555-8555-555555555555';
export const START = '66666666-6666-4666-8666-666666666666';
export const END = '77777777-7777-4777-8777-777777777777';

export const MP4_URL = 'https://flow-content.google/video/x?Expires=1&KeyName=labs-flow-prod-cdn-key&Signature=abc';
export const POSTER_URL = 'https://flow-content.google/image/x?Expires=1&KeyName=labs-flow-prod-cdn-key&Signature=def';

export function videoRecord(opts: {
  workflowId?: string;
  mediaId?: string;
  status: number;
  marker?: string | null;
  done?: boolean;
  swapped?: boolean;
  key?: string;
}): unknown[] {
  const done = opts.done ?? opts.status === 3;
  const details: unknown[] = new Array<unknown>(14).fill(null);
  details[0] = [1700000000, 0];
  details[1] = 'a red fox';
  details[6] = [
    null,
    [[opts.key ?? 'veo_3_1_t2v_lite', 1, null, null, 2, 1]],
    [[null, null, [[['a red fox']]]]],
    null,
    1,
  ];
  details[8] = [opts.status];
  details[9] = 1;
  const info: unknown[] = new Array<unknown>(17).fill(null);
  info[7] = 'a red fox';
  info[12] = opts.key ?? 'veo_3_1_t2v_lite';
  info[16] = 2;
  if (done) {
    details[10] = opts.swapped === true ? MP4_URL : POSTER_URL;
    details[11] = [];
    details[13] = 12345;
    info[8] = opts.swapped === true ? POSTER_URL : MP4_URL;
  }
  return [
    opts.workflowId ?? WORKFLOW,
    PROJECT,
    opts.mediaId ?? MEDIA,
    opts.marker === undefined ? 'CAE' : opts.marker,
    null,
    details,
    null,
    [info, [null, null, [8]], [opts.workflowId ?? WORKFLOW]],
  ];
}

/** Frames items into the `)]}'` chunked envelope. */
export function envelope(items: unknown[][]): string {
  let out = ")]}'\n\n";
  const lines = items.map((item) => JSON.stringify([item]));
  lines.push(
    JSON.stringify([
      ['di', 42],
      ['af.httprm', 41, '-123', 5],
    ]),
  );
  lines.push(JSON.stringify([['e', 4, null, null, lines.length + 1]]));
  for (const line of lines) out += `${Buffer.byteLength(line)}\n${line}\n`;
  return out;
}

export function wrb(rpcId: string, payload: unknown, error: unknown = null): unknown[] {
  return ['wrb.fr', rpcId, payload === null ? null : JSON.stringify(payload), null, null, error, 'generic'];
}

/** A form-encoded batchexecute body. */
export function formBody(rpcId: string, inner: unknown): string {
  const fReq = JSON.stringify([[[rpcId, JSON.stringify(inner), null, 'generic']]]);
  return `f.req=${encodeURIComponent(fReq)}&at=${encodeURIComponent('csrf:123')}&`;
}
