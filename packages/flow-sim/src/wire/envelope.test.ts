import { describe, expect, it } from 'vitest';
import { decodeFreq, encodeEnvelope, refusalError } from './envelope.js';

describe('batchexecute envelope', () => {
  it("frames items as )]}' + length lines + JSON lines, ending with the e item", () => {
    const text = encodeEnvelope([{ rpcId: 'jHPbke', payload: ['p1', ['T']] }], 7);
    expect(text.startsWith(")]}'\n\n")).toBe(true);
    const lines = text.slice(6).trimEnd().split('\n');
    for (let i = 0; i < lines.length; i += 2)
      expect(Number(lines[i])).toBe(Buffer.byteLength(lines[i + 1] ?? '', 'utf8'));
    const first = JSON.parse(lines[1] ?? '[]');
    expect(first[0].slice(0, 3)).toEqual(['wrb.fr', 'jHPbke', JSON.stringify(['p1', ['T']])]);
    expect(JSON.parse(lines.at(-1) ?? '[]')[0][0]).toBe('e');
  });

  it('puts refusals in slot [5] with a null payload', () => {
    const text = encodeEnvelope(
      [{ rpcId: 'ogiZ0b', payload: null, error: refusalError(7, 'PUBLIC_ERROR_UNUSUAL_ACTIVITY') }],
      1,
    );
    expect(text).toContain(
      '["wrb.fr","ogiZ0b",null,null,null,[7,null,[["type.googleapis.com/google.rpc.ErrorInfo",["PUBLIC_ERROR_UNUSUAL_ACTIVITY"]]]],"generic"]',
    );
  });

  it('decodes f.req calls and rejects malformed ones', () => {
    expect(decodeFreq(JSON.stringify([[['YhhmEf', '[1]', null, 'generic']]]))).toEqual([
      { rpcId: 'YhhmEf', inner: '[1]', fReq: '[[["YhhmEf","[1]",null,"generic"]]]' },
    ]);
    expect(() => decodeFreq('{"a":1}')).toThrow();
    expect(() => decodeFreq('[[[1,2]]]')).toThrow();
  });
});
