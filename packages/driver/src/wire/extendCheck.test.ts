import { describe, expect, it } from 'vitest';
import { decodeFormBody } from './formBody.js';
import { type ExtendExpectation, checkExtendSubmit, lastSecondWindow, readExtendBody } from './extendCheck.js';

const WORKFLOW = '0b5c5d8e-1111-4a2b-8c3d-000000000001';
const MEDIA = '7d1e9f00-2222-4a2b-8c3d-000000000002';
const SCENE = '9a0b1c2d-3333-4a2b-8c3d-000000000003';

function call(rpcId: string, inner: unknown) {
  const fReq = JSON.stringify([[[rpcId, JSON.stringify(inner), null, 'generic']]]);
  const c = decodeFormBody(`f.req=${encodeURIComponent(fReq)}`).calls[0];
  if (c === undefined) throw new Error('no call');
  return c;
}

/** The body flow-captures.md §10 recorded, with its slots filled in. */
function captured(
  source: string,
  window: readonly [number, number],
  key = 'veo_3_1_extend_lite',
  prompt = 'the camera keeps moving',
): unknown {
  return [
    [
      [
        [null, source, window[0], window[1]],
        [null, null, [[[prompt]]]],
        key,
        2,
        null,
        [SCENE, null, null, null, 'u1', 'u2'],
      ],
    ],
    [null, 22, null, null, null, 'proj', null, null, null, null, ['token', 1]],
    ['u3', 2, null, [SCENE, 2]],
  ];
}

const want: ExtendExpectation = {
  workflowId: WORKFLOW,
  mediaId: MEDIA,
  window: [169, 192],
  prompt: 'the camera keeps moving',
  model: 'veo_3_1_lite',
};

describe('the extend submit guard (flow-captures.md §10)', () => {
  it('§10 frame window: the last second at 24 fps, [d·24 − 23, d·24]', () => {
    expect(lastSecondWindow(8)).toEqual([169, 192]);
    expect(lastSecondWindow(4)).toEqual([73, 96]);
    expect(lastSecondWindow(7)).toEqual([145, 168]);
  });

  it('reads the captured body by shape', () => {
    expect(readExtendBody(captured(WORKFLOW, [169, 192]))).toMatchObject({
      sourceId: WORKFLOW,
      window: [169, 192],
      modelKey: 'veo_3_1_extend_lite',
    });
    expect(readExtendBody([[['no source here']]])).toBeNull();
  });

  it('passes the captured body with the workflow id and the last second', () => {
    expect(checkExtendSubmit(call('fZytfe', captured(WORKFLOW, [169, 192])), want)).toEqual({
      ok: true,
      problems: [],
      modelKey: 'veo_3_1_extend_lite',
    });
  });

  it("refuses the clip's media id in the source slot (billed, never scheduled)", () => {
    const verdict = checkExtendSubmit(call('fZytfe', captured(MEDIA, [169, 192])), want);
    expect(verdict.ok).toBe(false);
    expect(verdict.problems.join()).toMatch(/media id .* never schedules/);
  });

  it('refuses any other id in the source slot, another window, another model, a missing prompt', () => {
    expect(checkExtendSubmit(call('fZytfe', captured(SCENE, [169, 192])), want).problems.join()).toMatch(
      /not the clip's workflow id/,
    );
    expect(checkExtendSubmit(call('fZytfe', captured(WORKFLOW, [1, 24])), want).problems.join()).toMatch(
      /frame window is \[1, 24\]/,
    );
    expect(
      checkExtendSubmit(call('fZytfe', captured(WORKFLOW, [169, 192], 'veo_3_1_extend_fast')), want).problems.join(),
    ).toMatch(/not Veo 3.1 - Lite/);
    expect(
      checkExtendSubmit(
        call('fZytfe', captured(WORKFLOW, [169, 192], 'veo_3_1_extend_lite', 'other')),
        want,
      ).problems.join(),
    ).toMatch(/prompt/);
  });

  it('refuses an unknown shape and another rpc (a wire-format error before anything leaves)', () => {
    const odd = checkExtendSubmit(call('fZytfe', [[[WORKFLOW, 169, 192]]]), want);
    expect(odd.ok).toBe(false);
    expect(odd.problems.join()).toMatch(/no source slot/);
    expect(checkExtendSubmit(call('YhhmEf', captured(WORKFLOW, [169, 192])), want).problems.join()).toMatch(
      /not the extend submit/,
    );
  });
});
