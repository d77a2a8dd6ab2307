import { describe, expect, it } from 'vitest';
import { envelope, wrb } from '../../test/helpers/wireFixtures.js';
import { itemsFor, parseBatchexecute } from './batchexecute.js';
import { decodeFormBody, isBatchexecuteUrl, rpcIdsOfRequest } from './formBody.js';

describe('parseBatchexecute', () => {
  it('decodes wrb.fr items and skips length lines and trailers', () => {
    const env = parseBatchexecute(envelope([wrb('jwpduf', [null, 881, [['x']]]), wrb('as29s', 'abc')]));
    expect(env.guarded).toBe(true);
    expect(env.items.map((i) => i.rpcId)).toEqual(['jwpduf', 'as29s']);
    expect(itemsFor(env, 'jwpduf')[0]?.payload).toEqual([null, 881, [['x']]]);
    expect(itemsFor(env, 'as29s')[0]?.payload).toBe('abc');
  });

  it('reads a null payload with a refusal in slot [5]', () => {
    const env = parseBatchexecute(
      envelope([
        wrb('ogiZ0b', null, [
          7,
          null,
          [['type.googleapis.com/google.rpc.ErrorInfo', ['PUBLIC_ERROR_UNUSUAL_ACTIVITY']]],
        ]),
      ]),
    );
    expect(env.items[0]?.payload).toBeNull();
    expect(env.items[0]?.error).toEqual([
      7,
      null,
      [['type.googleapis.com/google.rpc.ErrorInfo', ['PUBLIC_ERROR_UNUSUAL_ACTIVITY']]],
    ]);
  });

  it('survives truncated and garbage lines', () => {
    const text = ')]}\'\n\n12\n[["wrb.fr","x"\n' + 'junk\n[["wrb.fr","ok","[1]",null,null,null,"generic"]]\n';
    const env = parseBatchexecute(text);
    expect(env.brokenLines).toBe(1);
    expect(env.items.map((i) => i.rpcId)).toEqual(['ok']);
  });

  it('reports an er item as an error', () => {
    const env = parseBatchexecute(')]}\'\n\n[["er","YhhmEf",null,null,null,[13]]]\n');
    expect(env.items[0]).toMatchObject({ kind: 'er', rpcId: 'YhhmEf', error: [13] });
  });

  it('gives nothing for an HTML page', () => {
    expect(parseBatchexecute('<html><body>500</body></html>').items).toEqual([]);
  });
});

describe('decodeFormBody', () => {
  it('form-decodes f.req and parses the inner JSON', () => {
    const fReq = JSON.stringify([
      [['YhhmEf', JSON.stringify([['a "quoted" prompt', 'veo_3_1_t2v_lite']]), null, 'generic']],
    ]);
    const body = `f.req=${encodeURIComponent(fReq)}&at=tok`;
    const decoded = decodeFormBody(body);
    expect(decoded.calls[0]?.rpcId).toBe('YhhmEf');
    expect(decoded.calls[0]?.inner).toEqual([['a "quoted" prompt', 'veo_3_1_t2v_lite']]);
  });

  it('reads nprQif from the body head when the URL has no rpcids', () => {
    const fReq = JSON.stringify([[['nprQif', '[]', null, 'generic']]]);
    const url = 'https://flow.google.com/_/AiSandboxAngularFrontend/data/batchexecute?source-path=%2Fproject%2Fp&rt=c';
    expect(rpcIdsOfRequest(url, `f.req=${encodeURIComponent(fReq)}`)).toEqual(['nprQif']);
    expect(rpcIdsOfRequest(`${url}&rpcids=jwpduf`, null)).toEqual(['jwpduf']);
    expect(rpcIdsOfRequest(url, null)).toEqual([]);
  });

  it('falls back to the head regex when f.req is not JSON', () => {
    const body = `f.req=${encodeURIComponent('[[["nprQif","[broken')}`;
    expect(decodeFormBody(body).calls.map((c) => c.rpcId)).toEqual(['nprQif']);
  });

  it('gives no calls for a body without f.req', () => {
    expect(decodeFormBody('at=x').calls).toEqual([]);
    expect(decodeFormBody('').calls).toEqual([]);
  });

  it('recognises only the https flow.google.com endpoint', () => {
    expect(isBatchexecuteUrl('https://flow.google.com/_/AiSandboxAngularFrontend/data/batchexecute?rpcids=x')).toBe(
      true,
    );
    expect(isBatchexecuteUrl('https://flow.google.com.evil.test/_/AiSandboxAngularFrontend/data/batchexecute')).toBe(
      false,
    );
    expect(isBatchexecuteUrl('http://flow.google.com/_/AiSandboxAngularFrontend/data/batchexecute')).toBe(false);
  });
});
