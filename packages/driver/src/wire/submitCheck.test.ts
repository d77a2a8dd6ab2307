import { describe, expect, it } from 'vitest';
import { END, START } from '../../test/helpers/wireFixtures.js';
import { decodeFormBody } from './formBody.js';
import { type VideoExpectation, checkImageSubmit, checkVideoSubmit } from './submitCheck.js';

function call(rpcId: string, inner: unknown) {
  const fReq = JSON.stringify([[[rpcId, JSON.stringify(inner), null, 'generic']]]);
  const c = decodeFormBody(`f.req=${encodeURIComponent(fReq)}`).calls[0];
  if (c === undefined) throw new Error('no call');
  return c;
}

const t2v: VideoExpectation = {
  mode: 't2v',
  model: 'veo_3_1_lite',
  duration: 8,
  prompt: 'a fox',
  startId: null,
  endId: null,
  referenceIds: [],
};

function body(prompt: string, key: string, extra: unknown = null): unknown {
  return [
    [[[null, null, [[[prompt]]]], key, 2, null, [null, null, null, null, 'u1', 'u2'], extra]],
    [null, 22, null, null, null, 'proj', null, null, null, null, ['token', 1]],
    ['u3', 1],
  ];
}

describe('video submit checks', () => {
  it('accepts a matching t2v body', () => {
    expect(checkVideoSubmit(call('YhhmEf', body('a fox', 'veo_3_1_t2v_lite')), t2v)).toMatchObject({
      ok: true,
      modelKey: 'veo_3_1_t2v_lite',
    });
  });

  it('refuses the wrong model family, tier and duration', () => {
    expect(checkVideoSubmit(call('YhhmEf', body('a fox', 'veo_3_1_t2v_fast')), t2v).ok).toBe(false);
    expect(checkVideoSubmit(call('YhhmEf', body('a fox', 'veo_3_1_lite_lower_priority')), t2v).problems.join()).toMatch(
      /Lower Priority/,
    );
    expect(checkVideoSubmit(call('YhhmEf', body('a fox', 'veo_3_1_t2v_lite_4s')), t2v).problems.join()).toMatch(/4 s/);
    expect(checkVideoSubmit(call('YhhmEf', body('a fox', 'abra_t2v_8s')), { ...t2v, model: 'omni_flash' }).ok).toBe(
      true,
    );
    expect(checkVideoSubmit(call('YhhmEf', body('a fox', 'abra_t2v_6s')), { ...t2v, model: 'omni_flash' }).ok).toBe(
      false,
    );
    expect(
      checkVideoSubmit(call('YhhmEf', body('a fox', 'veo_3_1_lite_lower_priority')), {
        ...t2v,
        model: 'veo_3_1_lite_lower_priority',
      }).ok,
    ).toBe(true);
    expect(
      checkVideoSubmit(call('YhhmEf', body('a fox', 'veo_3_1_t2v_lite')), {
        ...t2v,
        model: 'veo_3_1_lite_lower_priority',
      }).problems.join(),
    ).toMatch(/not the Lower Priority/);
  });

  it('catches an empty Frames chip that submitted t2v on YhhmEf', () => {
    const want: VideoExpectation = { ...t2v, mode: 'i2v', startId: START };
    const v = checkVideoSubmit(call('YhhmEf', body('a fox', 'veo_3_1_t2v_lite')), want);
    expect(v.ok).toBe(false);
    expect(v.problems.join(' ')).toMatch(/eb1hJf/);
    expect(v.problems.join(' ')).toMatch(new RegExp(START));
  });

  it('accepts i2v and interpolation with their ids; nprQif needs both', () => {
    const i2v: VideoExpectation = { ...t2v, mode: 'i2v', startId: START };
    expect(checkVideoSubmit(call('eb1hJf', body('a fox', 'veo_3_1_i2v_lite', [START, null])), i2v).ok).toBe(true);
    const interp: VideoExpectation = { ...i2v, endId: END };
    expect(checkVideoSubmit(call('nprQif', body('a fox', 'veo_3_1_interpolation_lite', [START, END])), interp).ok).toBe(
      true,
    );
    expect(
      checkVideoSubmit(call('nprQif', body('a fox', 'veo_3_1_interpolation_lite', [START, null])), interp).ok,
    ).toBe(false);
    expect(checkVideoSubmit(call('nprQif', body('a fox', 'veo_3_1_i2v_lite', [START, END])), interp).ok).toBe(false);
  });

  it('catches r2v degraded to a t2v key, and missing reference ids', () => {
    const r2v: VideoExpectation = { ...t2v, mode: 'r2v', referenceIds: [START, END] };
    expect(
      checkVideoSubmit(
        call(
          'MZZa6b',
          body('a fox', 'veo_3_1_r2v_lite', [
            [null, 1, START],
            [null, 1, END],
          ]),
        ),
        r2v,
      ).ok,
    ).toBe(true);
    expect(
      checkVideoSubmit(
        call(
          'MZZa6b',
          body('a fox', 'veo_3_1_t2v_lite_4s_low_priority', [
            [null, 1, START],
            [null, 1, END],
          ]),
        ),
        r2v,
      ).ok,
    ).toBe(false);
    expect(
      checkVideoSubmit(call('MZZa6b', body('a fox', 'veo_3_1_r2v_lite', [[null, 1, START]])), r2v).problems.join(),
    ).toMatch(END);
  });

  it('r2v with a saved character needs its entity id in the body, in whatever slot', () => {
    const entity = 'ent_Captain-Ro_42';
    const want: VideoExpectation = { ...t2v, mode: 'r2v', referenceIds: [START], entityIds: [entity] };
    expect(
      checkVideoSubmit(
        call(
          'MZZa6b',
          body('a fox', 'veo_3_1_r2v_lite', [
            [null, 1, START],
            [null, 1, entity, 'entity'],
          ]),
        ),
        want,
      ).ok,
    ).toBe(true);
    const without = checkVideoSubmit(call('MZZa6b', body('a fox', 'veo_3_1_r2v_lite', [[null, 1, START]])), want);
    expect(without.ok).toBe(false);
    expect(without.problems.join()).toMatch(new RegExp(`saved character id\\(s\\) ${entity}`));
    const onlyCharacter: VideoExpectation = { ...t2v, mode: 'r2v', entityIds: [entity] };
    expect(
      checkVideoSubmit(call('MZZa6b', body('a fox', 'veo_3_1_r2v_lite', [[null, 1, entity, 'entity']])), onlyCharacter)
        .ok,
    ).toBe(true);
  });

  it('refuses a body without a key, and does not take the prompt for a key', () => {
    expect(checkVideoSubmit(call('YhhmEf', [[['veo_like_prompt']]]), { ...t2v, prompt: 'veo_like_prompt' }).ok).toBe(
      false,
    );
    expect(
      checkVideoSubmit(call('YhhmEf', body('a fox', 'veo_3_1_t2v_lite')), { ...t2v, prompt: 'a wolf' }).problems.join(),
    ).toMatch(/prompt/);
  });

  it('for an unknown-family model only refuses known other families', () => {
    const want = { ...t2v, model: 'omni_1_2_flash' as const, duration: 5 };
    expect(checkVideoSubmit(call('YhhmEf', body('a fox', 'zeta_t2v_5s')), want).ok).toBe(true);
    expect(checkVideoSubmit(call('YhhmEf', body('a fox', 'abra_t2v_5s')), want).ok).toBe(false);
  });
});

describe('image submit checks', () => {
  const inner = [[[null, null, [[['a cat']]]], 'GEM_PIX_2', 5, 2, [[null, 1, START]]], ['ctx'], ['u', 1]];
  it('accepts the token and every reference id', () => {
    expect(
      checkImageSubmit(call('ogiZ0b', inner), { token: 'GEM_PIX_2', prompt: 'a cat', referenceIds: [START] }).ok,
    ).toBe(true);
  });
  it('refuses another token, a missing reference, another rpc', () => {
    expect(checkImageSubmit(call('ogiZ0b', inner), { token: 'NARWHAL', prompt: 'a cat', referenceIds: [] }).ok).toBe(
      false,
    );
    expect(
      checkImageSubmit(call('ogiZ0b', inner), { token: 'GEM_PIX_2', prompt: 'a cat', referenceIds: [END] }).ok,
    ).toBe(false);
    expect(checkImageSubmit(call('YhhmEf', inner), { token: 'GEM_PIX_2', prompt: 'a cat', referenceIds: [] }).ok).toBe(
      false,
    );
  });
  it('with a saved character: its entity id must be in the body', () => {
    const withCharacter = [
      [[null, null, [[['a cat Mira']]]], 'GEM_PIX_2', 5, 1, [[null, 1, 'ent-9', 'entity']]],
      ['ctx'],
      ['u', 1],
    ];
    expect(
      checkImageSubmit(call('ogiZ0b', withCharacter), {
        token: 'GEM_PIX_2',
        prompt: 'a cat',
        referenceIds: [],
        entityIds: ['ent-9'],
      }).ok,
    ).toBe(true);
    const v = checkImageSubmit(call('ogiZ0b', inner), {
      token: 'GEM_PIX_2',
      prompt: 'a cat',
      referenceIds: [START],
      entityIds: ['ent-9'],
    });
    expect(v.ok).toBe(false);
    expect(v.problems.join()).toMatch(/saved character id\(s\) ent-9/);
  });
});
