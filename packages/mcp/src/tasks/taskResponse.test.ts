import { describe, expect, it } from 'vitest';
import { taskResponse } from './taskResponse.js';

const base = {
  task_id: 't1',
  task_type: 't2v',
  profile: 'default',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:01:00Z',
};

describe('taskResponse', () => {
  it('shows pending as working, says queued (a phase word), and keeps ttlMs null', () => {
    expect(taskResponse({ ...base, status: 'pending' })).toEqual({
      taskId: 't1',
      status: 'working',
      statusMessage: 'queued',
      ttlMs: null,
      createdAt: base.created_at,
      lastUpdatedAt: base.updated_at,
    });
  });

  it('shows indeterminate as cancelled and says a credit may have been spent', () => {
    const view = taskResponse({ ...base, status: 'indeterminate', phase: 'submitted', may_have_spent: true });
    expect(view.status).toBe('cancelled');
    expect(view.statusMessage).toMatch(/credit may have been spent/);
  });

  it('a task stopped after its submit carries the project and media ids to check', () => {
    const view = taskResponse({
      ...base,
      status: 'indeterminate',
      phase: 'submitted',
      may_have_spent: true,
      flow_project_id: 'proj-9',
      flow_media_ids: ['m-1'],
    });
    expect(view).toMatchObject({ status: 'cancelled', flow_project_id: 'proj-9', flow_media_ids: ['m-1'] });
    expect(view.statusMessage).toContain('Flow project proj-9 (gflow://projects/proj-9)');
    expect(view.statusMessage).toContain('gflow_download_media');
    expect(taskResponse({ ...base, status: 'cancelled', flow_project_id: 'proj-9' })).toMatchObject({
      flow_project_id: 'proj-9',
    });
  });

  it('links the media of a completed task', () => {
    const view = taskResponse({
      ...base,
      status: 'completed',
      result: { status: 'completed', files: ['/tmp/out/videos/a.mp4'] },
    });
    expect(view.result?.content).toContainEqual(
      expect.objectContaining({ type: 'resource_link', uri: 'file:///tmp/out/videos/a.mp4', mimeType: 'video/mp4' }),
    );
  });
});
