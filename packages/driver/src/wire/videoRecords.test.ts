import { describe, expect, it } from 'vitest';
import {
  MEDIA,
  MP4_URL,
  OTHER_MEDIA,
  OTHER_WORKFLOW,
  POSTER_URL,
  PROJECT,
  WORKFLOW,
  videoRecord,
} from '../../test/helpers/wireFixtures.js';
import { findVideoRecords, findWorkflowSummaries, isTerminal, recordsForJob, videoPhase } from './videoRecords.js';

describe('video records', () => {
  it('finds a bare as29s record and reads status, urls, size', () => {
    const [r] = findVideoRecords(videoRecord({ status: 3 }));
    expect(r).toMatchObject({
      workflowId: WORKFLOW,
      projectId: PROJECT,
      mediaId: MEDIA,
      status: 3,
      videoUrl: MP4_URL,
      posterUrl: POSTER_URL,
      byteSize: 12345,
      modelKey: 'veo_3_1_t2v_lite',
      aspectIndex: 2,
    });
    expect(isTerminal(r!)).toBe(true);
  });

  it('does not key on the CAE marker (null, CAF)', () => {
    expect(findVideoRecords(videoRecord({ status: 2, marker: null }))).toHaveLength(1);
    expect(findVideoRecords(videoRecord({ status: 2, marker: 'CAF' }))).toHaveLength(1);
  });

  it('finds records inside the YhhmEf and jwpduf wrappers', () => {
    const rec = videoRecord({ status: 6 });
    const submit = [null, 881, [[MEDIA, null, null, ['Fox', [1, 2], null, null, WORKFLOW, 'batch'], PROJECT]], [[rec]]];
    expect(findVideoRecords(submit).map((r) => r.status)).toEqual([6]);
    expect(findVideoRecords([null, null, [[rec]]])).toHaveLength(1);
    expect(findWorkflowSummaries(submit)).toEqual([
      { mediaId: MEDIA, workflowId: WORKFLOW, projectId: PROJECT, title: 'Fox' },
    ]);
  });

  it("reads a summary's title only where it is a non-empty name (an id or a blank is none)", () => {
    const summary = (title: unknown) => [[MEDIA, null, null, [title, [1, 2], null, null, WORKFLOW], PROJECT]];
    expect(findWorkflowSummaries(summary('A fox trots'))[0]?.title).toBe('A fox trots');
    expect(findWorkflowSummaries(summary(''))[0]?.title).toBeNull();
    expect(findWorkflowSummaries(summary(null))[0]?.title).toBeNull();
    expect(findWorkflowSummaries(summary(OTHER_MEDIA))[0]?.title).toBeNull();
  });

  it('filters a project-wide poll that lists another clip first', () => {
    const poll = [
      null,
      881,
      [[videoRecord({ status: 3, workflowId: OTHER_WORKFLOW, mediaId: OTHER_MEDIA })], [videoRecord({ status: 2 })]],
    ];
    const all = findVideoRecords(poll);
    expect(all.map((r) => r.mediaId)).toEqual([OTHER_MEDIA, MEDIA]);
    const mine = recordsForJob(all, { workflowIds: [WORKFLOW] });
    expect(mine.map((r) => r.status)).toEqual([2]);
    expect(recordsForJob(all, { mediaIds: [OTHER_MEDIA] })[0]?.workflowId).toBe(OTHER_WORKFLOW);
  });

  it('treats done without URL as not terminal and unknown statuses as failed', () => {
    const [noUrl] = findVideoRecords(videoRecord({ status: 3, done: false }));
    expect(isTerminal(noUrl!)).toBe(false);
    const [failed] = findVideoRecords(videoRecord({ status: 7 }));
    expect(videoPhase(failed!.status)).toBe('failed');
    expect(isTerminal(failed!)).toBe(true);
    expect(videoPhase(6)).toBe('submitted');
    expect(videoPhase(2)).toBe('running');
    expect(videoPhase(null)).toBe('unknown');
  });

  it('keeps swapped URL slots as they are (download tries the other slot)', () => {
    const [r] = findVideoRecords(videoRecord({ status: 3, swapped: true }));
    expect(r?.videoUrl).toBe(POSTER_URL);
    expect(r?.posterUrl).toBe(MP4_URL);
  });

  it('ignores the bare workflow-id string as29s sends while running, and non-UUID lookalikes', () => {
    expect(findVideoRecords(WORKFLOW)).toEqual([]);
    expect(findVideoRecords(['a', 'b', 'c', null, null, []])).toEqual([]);
    expect(findVideoRecords(null)).toEqual([]);
  });
});
