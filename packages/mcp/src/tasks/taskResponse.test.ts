import type { TaskView } from '@gflow/core';
import { describe, expect, it } from 'vitest';
import { POLL_INTERVAL_MS, createTaskResult, detailedTask } from './taskResponse.js';

const base = {
  task_id: 't1',
  task_type: 't2v',
  profile: 'default',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:01:00Z',
} as const;

const problem = (code: string) => ({
  type: `https://gflow.dev/errors/${code}`,
  title: code,
  status: 500,
  detail: `a ${code} failure`,
  instance: 'urn:uuid:t1',
  remediation_hint: 'none',
  retryable: false,
});

describe('detailedTask (SEP-2663 DetailedTask of any core task)', () => {
  it('shows pending as working, says queued, keeps ttlMs null and gives an integer poll interval', () => {
    expect(detailedTask({ ...base, status: 'pending' })).toEqual({
      taskId: 't1',
      status: 'working',
      statusMessage: 'queued',
      ttlMs: null,
      pollIntervalMs: POLL_INTERVAL_MS,
      createdAt: base.created_at,
      lastUpdatedAt: base.updated_at,
      _meta: { 'dev.gflow/task': { task_type: 't2v' } },
    });
    expect(Number.isInteger(POLL_INTERVAL_MS) && POLL_INTERVAL_MS > 0).toBe(true);
  });

  it('a job waiting on its client is input_required with its questions; without questions it is working with its phase', () => {
    const question = { method: 'elicitation/create', params: { message: 'Go?' } };
    expect(detailedTask({ ...base, status: 'working', input_requests: { go: question } })).toMatchObject({
      status: 'input_required',
      inputRequests: { go: question },
    });
    const working = detailedTask({ ...base, status: 'working', phase: 'generating' });
    expect(working).toMatchObject({ status: 'working', statusMessage: 'generating' });
    expect(working).not.toHaveProperty('inputRequests');
    expect(working).not.toHaveProperty('result');
  });

  it('a completed task inlines the wait=true reply with its media links, and no error', () => {
    const view = detailedTask({
      ...base,
      status: 'completed',
      result: {
        status: 'completed',
        task_id: 't1',
        flow_project_id: 'p-1',
        flow_media_id: 'm-1',
        files: ['/tmp/out/videos/a.mp4'],
        media: [],
      },
    });
    expect(view.status).toBe('completed');
    expect(view).not.toHaveProperty('error');
    expect(view.result?.isError).toBeUndefined();
    expect(view.result?.content).toContainEqual(
      expect.objectContaining({ type: 'resource_link', uri: 'file:///tmp/out/videos/a.mp4', mimeType: 'video/mp4' }),
    );
  });

  it('a generation that ran and failed is completed with result.isError (not failed)', () => {
    const error = problem('content-policy');
    const view = detailedTask({
      ...base,
      status: 'failed',
      error,
      result: { status: 'failed', task_id: 't1', error: { ...error, message: 'refused' } },
    });
    expect(view.status).toBe('completed');
    expect(view.result?.isError).toBe(true);
    expect(view.result?.structuredContent).toMatchObject({ status: 'failed', error: { type: error.type } });
    expect(view).not.toHaveProperty('error');
  });

  it('a task that failed to run (its process died, its job crashed) is failed with an inlined JSON-RPC error and no result', () => {
    const error = problem('daemon-recovery');
    const view = detailedTask({
      ...base,
      status: 'failed',
      error,
      failed_to_run: true,
      result: { status: 'failed', error: { ...error, message: 'it died' } },
    });
    expect(view).toMatchObject({
      status: 'failed',
      statusMessage: 'a daemon-recovery failure',
      error: { code: -32603, message: 'a daemon-recovery failure', data: error },
    });
    expect(view).not.toHaveProperty('result');
  });

  it('indeterminate is cancelled with a credit warning naming the project, media and the recovery tool', () => {
    const view = detailedTask({
      ...base,
      status: 'indeterminate',
      phase: 'submitted',
      may_have_spent: true,
      flow_project_id: 'proj-9',
      flow_media_ids: ['m-1'],
    });
    expect(view).toMatchObject({
      status: 'cancelled',
      _meta: { 'dev.gflow/task': { flow_project_id: 'proj-9', flow_media_ids: ['m-1'], may_have_spent: true } },
    });
    expect(view.statusMessage).toMatch(/credit may have been spent/);
    expect(view.statusMessage).toContain('Flow project proj-9 (gflow://projects/proj-9)');
    expect(view.statusMessage).toContain('gflow_download_media');
    expect(view).not.toHaveProperty('result');
    expect(detailedTask({ ...base, status: 'cancelled' })).toMatchObject({ status: 'cancelled' });
  });
});

describe('createTaskResult (SEP-2663 CreateTaskResult)', () => {
  it('is flat: resultType task, the Task fields at the top, no result, error, questions or requestState', () => {
    const view: TaskView = { ...base, status: 'working', input_requests: { q: { method: 'elicitation/create' } } };
    const created = createTaskResult(view);
    expect(created).toMatchObject({ resultType: 'task', taskId: 't1', status: 'input_required', ttlMs: null });
    for (const key of ['result', 'error', 'inputRequests', 'requestState', 'task', 'ttl', 'pollInterval'])
      expect(created).not.toHaveProperty(key);
  });
});
