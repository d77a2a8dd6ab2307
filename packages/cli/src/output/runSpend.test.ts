import { describe, expect, it } from 'vitest';
import { runNotes, spentLines } from './runSpend.js';

const PROJECT = '1a2b3c4d-0000-4000-8000-000000000002';
const MEDIA = '3f0c2a1e-0000-4000-8000-000000000001';
const TASK = '6f1c0000-0000-4000-8000-000000000003';

describe('what a run that did not complete says about credits', () => {
  it('names the interrupted link with its project and media ids, then the resume that never pays twice', () => {
    const notes = runNotes({
      status: 'indeterminate',
      task_id: TASK,
      flow_project_id: PROJECT,
      links: [
        { status: 'done', file: '/out/link-1.mp4', flow_media_id: 'a' },
        { status: 'indeterminate', flow_media_id: MEDIA },
        { status: 'pending' },
      ],
    });
    expect(notes).toEqual([
      `Link 2 may have spent credits (Flow project ${PROJECT}, media ${MEDIA}): look there before you retry it.`,
      `Continue it with 'gflow task resume ${TASK}' (done steps are kept; a step that may have been submitted is recovered by its ids, never submitted again).`,
    ]);
  });

  it("reads a failed item's own problem document: may_have_spent, its project and the media Flow named", () => {
    const lines = spentLines({
      status: 'partial',
      flow_project_id: null,
      items: [
        { status: 'completed', files: ['/x.jpg'] },
        {
          status: 'failed',
          error: { may_have_spent: true, flow_project_id: PROJECT, flow_media_ids: [MEDIA, 'b'] },
        },
        { status: 'failed', error: { may_have_spent: false } },
      ],
    });
    expect(lines).toEqual([
      `Item 2 may have spent credits (Flow project ${PROJECT}, media ${MEDIA}, b): look there before you retry it.`,
    ]);
  });

  it('says when neither the project nor a media id is known, rather than naming nothing', () => {
    expect(spentLines({ status: 'failed', items: [{ status: 'indeterminate' }] })).toEqual([
      'Item 1 may have spent credits (its Flow project is not known, no media id was read): look there before you retry it.',
    ]);
  });

  it('says nothing for a completed run, a dry run or one still running; a cancel before any submit only offers the resume', () => {
    const links = [{ status: 'done' }, { status: 'done' }];
    expect(runNotes({ status: 'completed', task_id: TASK, links })).toEqual([]);
    expect(runNotes({ status: 'planned', task_id: TASK, links: [{ status: 'planned' }] })).toEqual([]);
    expect(runNotes({ status: 'running', task_id: TASK, links: [{ status: 'running' }] })).toEqual([]);
    expect(
      runNotes({ status: 'cancelled', task_id: TASK, items: [{ status: 'completed' }, { status: 'skipped' }] }),
    ).toEqual([
      `Continue it with 'gflow task resume ${TASK}' (done steps are kept; a step that may have been submitted is recovered by its ids, never submitted again).`,
    ]);
  });
});
