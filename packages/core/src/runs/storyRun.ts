import path from 'node:path';
import type { TaskRecord } from '@gflow/catalog';
import { ConfigurationError } from '@gflow/errors';
import type { GenerationResult } from '../generation/index.js';
import { extendVideoInput } from '../generation/schemas.js';
import { type MovieClipSource, writeMovie } from '../movie/movieFile.js';
import type { OperationContext } from '../runtime/operationContext.js';
import { finalEnvelopeOf } from '../tasks/taskEnvelope.js';
import { exitOfEnvelope } from './batchRun.js';
import { lastFrameFile } from './clipFrames.js';
import type { RunKind, RunSteps } from './runExecution.js';
import { type StoryRunRequest, type StoryScene, type StoryStep, storySteps } from './runRequest.js';
import type { MovieResult, StoryStepResult } from './runResults.js';

const resultOf = (steps: RunSteps, index: number): GenerationResult | undefined =>
  steps.rows.get(index)?.status === 'completed' ? (steps.rows.get(index)?.result as GenerationResult) : undefined;

/** The step indexes of each scene, in order. */
function stepsByScene(request: StoryRunRequest): number[][] {
  const out = request.scenes.map((): number[] => []);
  storySteps(request.scenes).forEach((step, index) => out[step.scene]?.push(index));
  return out;
}

/** The clip a scene ends on: its last step's file, or (no step) the existing video it is over. */
function endFileOf(request: StoryRunRequest, steps: RunSteps, scene: number): string {
  const last = stepsByScene(request)[scene]?.at(-1);
  const clip = request.scenes[scene]?.clip;
  const file =
    last === undefined ? (clip?.from === 'media' ? clip.file : undefined) : resultOf(steps, last)?.files?.[0];
  if (file === undefined) throw new ConfigurationError(`Scene ${scene + 1} has no clip to continue from.`);
  return file;
}

/** The media id an extension continues: the scene's existing video, else the step before's clip. */
function sourceOf(request: StoryRunRequest, steps: RunSteps, index: number, step: StoryStep): string {
  const clip = (request.scenes[step.scene] as StoryScene).clip;
  if (step.extension === 0 && clip.from === 'media') return clip.media_id;
  const media = resultOf(steps, index - 1)?.flow_media_id;
  if (typeof media !== 'string') throw new ConfigurationError(`Step ${index + 1} has no clip to extend.`);
  return media;
}

const fileBase = (step: StoryStep): string =>
  step.kind === 'clip' ? `scene-${step.scene + 1}` : `scene-${step.scene + 1}-ext-${step.extension + 1}`;

function promptOf(request: Pick<StoryRunRequest, 'scenes'>, step: StoryStep): string {
  const scene = request.scenes[step.scene] as StoryScene;
  if (step.kind === 'extend') return scene.extends[step.extension]?.prompt ?? '';
  return scene.clip.from === 'generate' ? scene.clip.input.prompt : '';
}

function modeOf(request: Pick<StoryRunRequest, 'scenes'>, step: StoryStep): StoryStepResult['mode'] {
  const clip = (request.scenes[step.scene] as StoryScene).clip;
  if (step.kind === 'extend' || clip.from !== 'generate') return 'extend';
  return clip.input.mode;
}

function stepOf(request: StoryRunRequest, steps: RunSteps, index: number, step: StoryStep): StoryStepResult {
  const row: TaskRecord | undefined = steps.rows.get(index);
  const base = { index, scene: step.scene, mode: modeOf(request, step), prompt: promptOf(request, step) };
  if (row === undefined || row.status === 'pending')
    return { ...base, status: 'pending', task_id: row?.taskId ?? null };
  if (row.status === 'working')
    return { ...base, status: 'running', task_id: row.taskId, phase: row.checkpoint?.phase ?? null };
  const result = row.status === 'completed' ? (row.result as GenerationResult) : finalEnvelopeOf(row);
  return {
    ...base,
    status: row.status === 'completed' ? 'done' : row.status === 'indeterminate' ? 'indeterminate' : 'failed',
    task_id: row.taskId,
    flow_media_id: result.flow_media_id ?? row.checkpoint?.media_ids[0] ?? null,
    file: result.files?.[0] ?? null,
    ...(row.status === 'completed' ? {} : { error: result.error }),
  };
}

/** A story's steps as a plan shows them (a dry run): nothing made yet. */
export function plannedStorySteps(request: Pick<StoryRunRequest, 'scenes'>): StoryStepResult[] {
  return storySteps(request.scenes).map((step, index) => ({
    index,
    scene: step.scene,
    mode: modeOf(request, step),
    prompt: promptOf(request, step),
    status: 'planned',
  }));
}

/** The movie's clips in order: each scene's existing video (if any), its new clip, its extensions. */
function movieClips(request: StoryRunRequest, steps: RunSteps): MovieClipSource[] {
  const byScene = stepsByScene(request);
  const all = storySteps(request.scenes);
  return request.scenes.flatMap((scene, s) => {
    const own = (byScene[s] ?? []).map((index) => {
      const result = resultOf(steps, index);
      const prompt = promptOf(request, all[index] as StoryStep);
      return { step: index, file: result?.files?.[0] ?? '', mediaId: result?.flow_media_id ?? null, prompt };
    });
    const head =
      scene.clip.from === 'media'
        ? [{ step: null, file: scene.clip.file, mediaId: scene.clip.media_id, prompt: scene.title }]
        : [];
    return [...head, ...own].map((c, i) => ({
      ...c,
      scene: s,
      name: i === 0 ? (scene.title ?? `Scene ${s + 1}`) : `Scene ${s + 1} · extension ${i}`,
    }));
  });
}

/** Seconds cut from the end of each clip before the next: the overlap before an extension, none between scenes. */
function trimsOf(request: StoryRunRequest, clips: readonly { scene: number }[]): number[] {
  return clips.slice(1).map((next, i) => (next.scene === clips[i]?.scene ? request.overlap : 0));
}

/** The movie: its clips stitched, then its OpenTimelineIO timeline beside it (none asked: nothing). */
async function stitchMovie(
  request: StoryRunRequest,
  steps: RunSteps,
  context: OperationContext,
  record: TaskRecord,
): Promise<Partial<MovieResult>> {
  if (request.output === null) return {};
  const clips = movieClips(request, steps);
  return writeMovie(context, record, {
    title: request.title,
    profile: request.profile,
    clips,
    trims: trimsOf(request, clips),
    target: request.output,
    overwrite: request.overwrite,
  });
}

/**
 * A story (issue 39: `movie run`, `video extend -n`): each scene's new clip — text-, image- (a
 * file, a media id or the scene before's last frame) or reference-to-video — then its extensions in
 * a row, each continuing the clip before it; a failure stops it; when every step is done, the clips
 * are stitched into the movie with its timeline.
 */
export const STORY_RUN: RunKind<StoryRunRequest, MovieResult> = {
  stepWord: 'clip',
  async askFor(request, index, steps, context) {
    const step = storySteps(request.scenes)[index] as StoryStep;
    const scene = request.scenes[step.scene] as StoryScene;
    const output = path.join(request.out_dir, fileBase(step));
    if (step.kind === 'extend') {
      const extension = scene.extends[step.extension] as StoryScene['extends'][number];
      const input = extendVideoInput.parse({
        media_id: sourceOf(request, steps, index, step),
        prompt: extension.prompt,
        ...(extension.model === undefined ? {} : { model: extension.model }),
        profile: request.profile,
        output,
      });
      return { kind: 'extend', input };
    }
    if (scene.clip.from !== 'generate') throw new ConfigurationError(`Scene ${step.scene + 1} makes no clip.`);
    const where = steps.project ? { project: steps.project } : { project_name: request.title.slice(0, 200) };
    const start =
      scene.clip.start === 'previous'
        ? {
            initial_frame: await lastFrameFile(
              context,
              request.profile,
              endFileOf(request, steps, step.scene - 1),
              request.out_dir,
            ),
          }
        : {};
    return { kind: 'video', input: { ...scene.clip.input, ...where, ...start, output } };
  },
  stopsAfterFailure: () => true,
  view(request, steps, status) {
    const settled = status === 'settled';
    const list = storySteps(request.scenes).map((step, i) => stepOf(request, steps, i, step));
    const failed = list.find((l) => l.status === 'failed' || l.status === 'indeterminate');
    const done = list.every((l) => l.status === 'done');
    const overall = !settled
      ? 'running'
      : done
        ? 'completed'
        : failed?.status === 'indeterminate'
          ? 'indeterminate'
          : 'failed';
    return {
      status: overall,
      movie_id: request.task_id,
      task_id: request.task_id,
      title: request.title,
      flow_project_id: steps.project,
      steps: list,
      made: steps.made,
      exit_code: failed === undefined ? 0 : exitOfEnvelope({ status: 'failed', error: failed.error }),
      credits_quoted: null,
      output: null,
      timeline: null,
      ...(failed?.error === undefined ? {} : { error: failed.error }),
    };
  },
  finish: stitchMovie,
  succeeded: (view) => view.status === 'completed',
  firstError: (view) => view.error,
};
