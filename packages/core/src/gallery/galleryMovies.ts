import type { TaskQueue, TaskRecord } from '@gflow/catalog';
import { type MovieResult, isRunPayload, runView, stepCountOf } from '../runs/index.js';
import { RUN_ID } from '../schemas/flowIdPattern.js';
import { STORY_TASK_TYPE, servableMovieFile } from './galleryFiles.js';
import type {
  GalleryMovieClip,
  GalleryMovieDetail,
  GalleryMovieItem,
  GalleryMoviePage,
  GalleryMovieStep,
} from './galleryTypes.js';
import { GALLERY_PAGE_MAX, GALLERY_SCAN_PER_KIND } from './galleryViews.js';

/** A story row's status as its envelope names it (a working row is running), without reading its steps. */
function statusOf(record: TaskRecord): string {
  return record.status === 'working' ? 'running' : record.status;
}

function titleOf(record: TaskRecord): string {
  const title = (record.payload as { title?: unknown }).title;
  return typeof title === 'string' && title !== '' ? title : `Movie ${record.taskId}`;
}

function itemOf(record: TaskRecord): GalleryMovieItem {
  const result = record.status === 'completed' ? (record.result as Partial<MovieResult> | null) : null;
  const seconds = result?.output?.seconds;
  return {
    movie_id: record.taskId,
    profile: record.profile,
    title: titleOf(record),
    status: statusOf(record),
    clip_count: Array.isArray(result?.clips) ? result.clips.length : (stepCountOf(record.payload) ?? 0),
    seconds: typeof seconds === 'number' ? seconds : null,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
  };
}

/** The movies (story runs) of the queue, newest first: the newest GALLERY_SCAN_PER_KIND are read. */
export async function galleryMovies(
  queue: TaskQueue,
  options: { readonly limit?: number | undefined } = {},
): Promise<GalleryMoviePage> {
  const rows: TaskRecord[] = [];
  let complete = false;
  for (let offset = 0; offset < GALLERY_SCAN_PER_KIND; offset += 1000) {
    const page = await queue.list({ taskType: STORY_TASK_TYPE, topLevel: true, limit: 1000, offset });
    rows.push(...page.items.filter((record) => isRunPayload(record.payload)));
    complete = !page.hasMore;
    if (complete) break;
  }
  const limit = Math.min(Math.max(1, options.limit ?? 200), GALLERY_PAGE_MAX);
  return { items: rows.slice(0, limit).map(itemOf), matched: rows.length, complete };
}

/** A problem document's title and detail (a step's or the movie's error), when it has them. */
function problemText(error: unknown): { title: string | null; detail: string | null } {
  const problem = (error ?? {}) as { title?: unknown; detail?: unknown };
  return {
    title: typeof problem.title === 'string' ? problem.title : error === undefined ? null : 'Failed',
    detail: typeof problem.detail === 'string' ? problem.detail : null,
  };
}

function stepOf(step: MovieResult['steps'][number]): GalleryMovieStep {
  const failed = step.status === 'failed' || step.status === 'indeterminate';
  const problem = failed ? problemText(step.error) : { title: null, detail: null };
  return {
    index: step.index,
    scene: step.scene,
    mode: step.mode,
    prompt: step.prompt,
    status: step.status,
    task_id: step.task_id ?? null,
    flow_media_id: step.flow_media_id ?? null,
    error_title: problem.title,
    error_detail: problem.detail,
  };
}

const clipOf = (clip: NonNullable<MovieResult['clips']>[number]): GalleryMovieClip => ({
  scene: clip.scene,
  step: clip.step,
  media_id: clip.media_id,
  prompt: clip.prompt,
  in_seconds: clip.in_seconds,
  out_seconds: clip.out_seconds,
});

/**
 * One movie (its story run's envelope, settled or as far as it got: runView) with what its page
 * needs: each step with its error's title, the stitched clips in order, and whether the movie and
 * its timeline may be served (servableMovieFile). Undefined for an id that names no movie.
 */
export async function galleryMovieDetail(
  queue: TaskQueue,
  movieId: string,
  outputDir: string,
): Promise<GalleryMovieDetail | undefined> {
  const record = RUN_ID.test(movieId) ? await queue.get(movieId) : undefined;
  if (record?.taskType !== STORY_TASK_TYPE || !isRunPayload(record.payload)) return undefined;
  const view = (await runView({ queue }, record)) as MovieResult;
  const movieError = view.status === 'completed' ? null : problemText(view.error).title;
  return {
    movie_id: record.taskId,
    profile: record.profile,
    title: view.title,
    status: view.status,
    flow_project_id: view.flow_project_id,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    steps: view.steps.map(stepOf),
    clips: (view.clips ?? []).map(clipOf),
    output: view.output ? { path: view.output.path, seconds: view.output.seconds, frames: view.output.frames } : null,
    timeline: view.timeline,
    playable: (await servableMovieFile(queue, movieId, outputDir, 'movie')) !== undefined,
    timeline_servable: (await servableMovieFile(queue, movieId, outputDir, 'timeline')) !== undefined,
    error_title: movieError,
  };
}
