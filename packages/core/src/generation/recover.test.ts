// How a step that may have been submitted is named for its recovery: its recorded ids, else what
// its project's listing found. The listing's answer carries a `kind` of its own ('found'); the
// follow must get only the ids (the media's kind stays the request's). And the operation it
// records its results under: its own on this machine, a new one when another machine (a fleet's)
// ran it. Stubs stand in for the browser session (a unit); the fleet journey recovers a step on
// another machine.
import { type TaskRecord, openCatalog } from '@gflow/catalog';
import type { FlowSession } from '@gflow/driver';
import { describe, expect, it, vi } from 'vitest';
import type { RuntimeServices } from '../runtime/runtimeServices.js';
import { recoveryOperation } from './operationRecord.js';
import { namedMedia } from './recover.js';
import type { GenerationRequest } from './request.js';

type SubmittedLookup = Awaited<ReturnType<FlowSession['findSubmitted']>>;

const PROJECT = '0f8e2a4c-1b3d-4e5f-8a9b-0c1d2e3f4a5b';
const MEDIA = '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';

const runtime = {
  settings: {},
  catalog: { assets: { mediaIdsOfProject: () => [] } },
} as unknown as RuntimeServices;
const request = {
  kind: 'image',
  command: 'gflow_generate_image',
  surface: 'mcp',
  input: { profile: 'twin', prompt: 'one swan' },
  plan: { count: 1, mode: 't2i', model: 'nano2', aspect: '16:9', characters: [] },
  expanded_prompt: 'one swan',
} as unknown as GenerationRequest;

function stepRow(mediaIds: string[]): TaskRecord {
  return {
    taskId: 'step-1',
    stepIndex: 0,
    updatedAt: '2026-01-01T00:00:00.000Z',
    checkpoint: {
      schema_version: 1,
      claimant: null,
      phase: 'submitting',
      may_have_spent: true,
      project_id: PROJECT,
      operation_id: 1,
      media_ids: mediaIds,
      workflow_ids: [],
      submitting_at: '2026-01-01T00:00:00.000Z',
    },
  } as unknown as TaskRecord;
}

function sessionAnswering(lookup: SubmittedLookup): { session: FlowSession; asked: ReturnType<typeof vi.fn> } {
  const asked = vi.fn(async () => lookup);
  return { session: { findSubmitted: asked } as unknown as FlowSession, asked };
}

describe('namedMedia', () => {
  it('takes the recorded ids without looking at the project', async () => {
    const { session, asked } = sessionAnswering({ kind: 'none' });
    await expect(namedMedia(runtime, session, stepRow([MEDIA]), request)).resolves.toEqual({
      mediaIds: [MEDIA],
      workflowIds: [],
    });
    expect(asked).not.toHaveBeenCalled();
  });

  it('answers only the ids the listing found (not the lookup’s own kind, which would replace the media’s)', async () => {
    const { session, asked } = sessionAnswering({ kind: 'found', mediaIds: [MEDIA], workflowIds: [] });
    const named = await namedMedia(runtime, session, stepRow([]), request);
    expect(named).toStrictEqual({ mediaIds: [MEDIA], workflowIds: [] });
    expect(asked).toHaveBeenCalledWith(expect.objectContaining({ projectId: PROJECT, kind: 'image', count: 1 }));
  });

  it('refuses a step whose project lists nothing it made (never submitted again)', async () => {
    const { session } = sessionAnswering({ kind: 'none' });
    await expect(namedMedia(runtime, session, stepRow([]), request)).rejects.toMatchObject({
      message: /lists nothing it made.*not submitted again/,
    });
  });
});

describe('recoveryOperation', () => {
  const start = (catalog: ReturnType<typeof openCatalog>, taskId: string): number =>
    catalog.operations.start({ profile: 'twin', command: 'gflow_generate_image', taskId }).id;

  it('keeps the operation the step started here', () => {
    const catalog = openCatalog({ path: ':memory:' });
    const mine = start(catalog, 'step-1');
    expect(recoveryOperation(catalog, request, { taskId: 'step-1', operationId: mine, projectId: PROJECT })).toBe(mine);
    catalog.close();
  });

  it('starts one here when the step ran on another machine (its operation id names another task here, or none)', () => {
    const catalog = openCatalog({ path: ':memory:' });
    const other = start(catalog, 'another-task');
    const taken = recoveryOperation(catalog, request, { taskId: 'step-1', operationId: other, projectId: PROJECT });
    expect(taken).not.toBe(other);
    expect(catalog.operations.get(taken)).toMatchObject({
      taskId: 'step-1',
      flowProjectId: PROJECT,
      prompt: 'one swan',
    });
    expect(catalog.operations.get(other)?.taskId).toBe('another-task');
    const none = recoveryOperation(catalog, request, { taskId: 'step-2', operationId: 999, projectId: PROJECT });
    expect(catalog.operations.get(none)?.taskId).toBe('step-2');
    catalog.close();
  });
});
