import { describe, expect, it } from 'vitest';
import { MEDIA, MP4_URL, PROJECT, WORKFLOW, videoRecord } from '../../test/helpers/wireFixtures.js';
import type { OpContext } from '../session/opContext.js';
import type { TappedResponse } from '../session/wireTap.js';
import { findVideoRecords } from '../wire/videoRecords.js';
import { watchVideoJob } from './videoWatcher.js';

const job = { workflowIds: [WORKFLOW], mediaIds: [MEDIA], projectId: PROJECT };

/** A reply the tap holds: one jwpduf/as29s item whose payload is `payload`. */
function tapped(seq: number, payload: unknown): TappedResponse {
  return {
    seq,
    at: seq,
    rpcIds: ['as29s'],
    status: 200,
    headers: {},
    envelope: { items: [{ rpcId: 'as29s', payload }], guarded: true, brokenLines: 0 },
  } as unknown as TappedResponse;
}

/** An operation context whose tap already holds `responses` and which sees no new reply. */
function contextWith(responses: TappedResponse[]): { ctx: OpContext; waited: () => number } {
  let waits = 0;
  const ctx = {
    tap: { seq: responses.at(-1)?.seq ?? 0, responses },
    report: () => undefined,
    spendExtensions: () => ({ may_have_spent: true }),
    timeout: (message: string) => new Error(message),
    waitForTap: async () => {
      waits += 1;
      throw new Error('no reply came while watching');
    },
  } as unknown as OpContext;
  return { ctx, waited: () => waits };
}

describe('watchVideoJob', () => {
  const doneWithoutUrl = findVideoRecords(videoRecord({ status: 3, done: false }));

  it('takes the URL a reply brought after the click but before the watch began, without waiting', async () => {
    const { ctx, waited } = contextWith([
      tapped(4, videoRecord({ status: 2 })),
      tapped(5, videoRecord({ status: 3 })),
      tapped(6, [null, null, [[videoRecord({ status: 3, done: false })]]]),
    ]);
    const records = await watchVideoJob(ctx, job, doneWithoutUrl, Date.now() + 60_000, { sinceSeq: 3 });
    expect(records.map((r) => r.videoUrl)).toEqual([MP4_URL]);
    expect(waited()).toBe(0);
  });

  it('reads nothing from before `sinceSeq`', async () => {
    const { ctx, waited } = contextWith([tapped(5, videoRecord({ status: 3 }))]);
    await expect(watchVideoJob(ctx, job, doneWithoutUrl, Date.now() + 60_000, { sinceSeq: 5 })).rejects.toThrow(
      /no reply came/,
    );
    expect(waited()).toBe(1);
  });
});
