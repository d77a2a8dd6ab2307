// A story's steps ask for the right thing from what the steps before made: an extension continues
// the scene's existing video, then each extension the one before it; a new clip goes to the run's
// project (or a new one named after the movie); the envelope counts done, failed and pending steps.
import type { TaskRecord } from '@gflow/catalog';
import { describe, expect, it } from 'vitest';
import { generateVideoInput } from '../generation/schemas.js';
import type { OperationContext } from '../runtime/operationContext.js';
import type { RunSteps } from './runExecution.js';
import { RUN_REQUEST_VERSION, type StoryRunRequest, runRequest, stepCountOf } from './runRequest.js';
import { STORY_RUN } from './storyRun.js';

const SOURCE = '0a1b2c3d-0000-4000-8000-000000000001';
const FIRST = '0a1b2c3d-0000-4000-8000-000000000002';
const CLIP = '0a1b2c3d-0000-4000-8000-000000000003';

const request = runRequest.parse({
  schema_version: RUN_REQUEST_VERSION,
  kind: 'run',
  run: 'story',
  task_id: 'movie-1',
  command: 'movie run',
  surface: 'cli',
  profile: 'alice',
  jitter: { min_ms: 0, max_ms: 0 },
  project: null,
  title: 'The keeper',
  scenes: [
    {
      clip: { from: 'media', media_id: SOURCE, file: '/clips/source.mp4', seconds: 8 },
      extends: [{ prompt: 'on' }, { prompt: 'and on', model: 'veo_fast' }],
      title: null,
    },
    {
      clip: { from: 'generate', input: generateVideoInput.parse({ prompt: 'a calm sea' }), start: null },
      extends: [{ prompt: 'the sea calms further' }],
      title: 'Sea',
    },
  ],
  out_dir: '/movies/m1',
  output: '/movies/m1/movie.mp4',
  overwrite: false,
  overlap: 1,
}) as StoryRunRequest;

function row(stepIndex: number, status: TaskRecord['status'], result?: Record<string, unknown>): TaskRecord {
  return {
    taskId: `step-${stepIndex}`,
    stepIndex,
    status,
    result: result ?? null,
    checkpoint: null,
  } as unknown as TaskRecord;
}

function stepsOf(rows: TaskRecord[], project: string | null = null): RunSteps {
  return {
    rows: new Map(rows.map((r) => [r.stepIndex as number, r])),
    made: 0,
    pausesMs: [],
    stoppedAt: null,
    project,
    refused: new Map(),
  };
}

const context = {} as OperationContext;

describe('a story run', () => {
  it('has a step per new clip and per extension, in order', () => {
    expect(stepCountOf(request)).toBe(4);
  });

  it('extends the existing video first, then each extension the one before it', async () => {
    const first = await STORY_RUN.askFor(request, 0, stepsOf([]), context);
    expect(first).toMatchObject({
      kind: 'extend',
      input: { media_id: SOURCE, prompt: 'on', output: '/movies/m1/scene-1-ext-1' },
    });
    const done = row(0, 'completed', { flow_media_id: FIRST, files: ['/movies/m1/scene-1-ext-1.mp4'] });
    const second = await STORY_RUN.askFor(request, 1, stepsOf([done]), context);
    expect(second).toMatchObject({ kind: 'extend', input: { media_id: FIRST, model: 'veo_fast' } });
  });

  it("makes a new clip in the run's project, or a new project named after the movie; its extension continues it", async () => {
    const alone = await STORY_RUN.askFor(request, 2, stepsOf([]), context);
    expect(alone).toMatchObject({
      kind: 'video',
      input: { prompt: 'a calm sea', project_name: 'The keeper', output: '/movies/m1/scene-2' },
    });
    const inProject = await STORY_RUN.askFor(request, 2, stepsOf([], 'project-1'), context);
    expect(inProject.input).toMatchObject({ project: 'project-1' });
    expect(inProject.input).not.toHaveProperty('project_name');
    const clip = row(2, 'completed', { flow_media_id: CLIP, files: ['/movies/m1/scene-2.mp4'] });
    const extension = await STORY_RUN.askFor(request, 3, stepsOf([clip]), context);
    expect(extension.input).toMatchObject({ media_id: CLIP, prompt: 'the sea calms further' });
    await expect(STORY_RUN.askFor(request, 3, stepsOf([]), context)).rejects.toThrow(/no clip to extend/);
  });

  it('shows each step by its row, and ends failed at the first step that failed', () => {
    const rows = [
      row(0, 'completed', { flow_media_id: FIRST, files: ['/a.mp4'] }),
      row(1, 'failed', { error: { type: 'https://gflow.dev/problems/content-policy', title: 'x', status: 422 } }),
    ];
    const view = STORY_RUN.view(request, stepsOf(rows), 'settled');
    expect(view.steps.map((s) => [s.mode, s.status])).toEqual([
      ['extend', 'done'],
      ['extend', 'failed'],
      ['t2v', 'pending'],
      ['extend', 'pending'],
    ]);
    expect(view).toMatchObject({ status: 'failed', movie_id: 'movie-1', title: 'The keeper', output: null });
    expect(STORY_RUN.view(request, stepsOf(rows), 'running').status).toBe('running');
  });
});
