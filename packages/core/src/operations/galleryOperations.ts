import fs from 'node:fs';
import { ReferenceNotFoundError } from '@gflow/errors';
import { z } from 'zod';
import type {
  GalleryFailure,
  GalleryMediaDetail,
  GalleryMediaPage,
  GalleryMovieDetail,
  GalleryMoviePage,
  GalleryProject,
  GalleryTask,
} from '../gallery/galleryTypes.js';
import {
  GALLERY_FAILURES_MAX,
  GALLERY_PAGE_MAX,
  GALLERY_SCAN_PER_KIND,
  galleryFailures,
  galleryMedia,
  galleryMediaDetail,
  galleryMediaOf,
  galleryProjects,
  galleryTasks,
} from '../gallery/galleryViews.js';
import { servableFile, servableMovieFile } from '../gallery/galleryFiles.js';
import { galleryMovieDetail, galleryMovies } from '../gallery/galleryMovies.js';
import { fleetRecentMedia, fleetServableFile } from '../fleet/fleetReads.js';
import { FLOW_ID, RUN_ID } from '../schemas/params.js';
import { defineOperation } from './operation.js';

// The gallery's reads (`gflow serve` at /, `gflow gallery`): local data only, on the library
// surface (the HTTP adapter runs them; they are not tools or commands of their own).
const galleryRead = { kind: 'read', usesBrowser: false, surfaces: ['library'] } as const;
const mediaId = z.string().trim().min(1).max(256).describe('A Flow media id.');
const isoDay = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?$/, 'a date YYYY-MM-DD')
  .optional();

export const galleryProjectsOperation = defineOperation({
  name: 'galleryProjects',
  mcpName: 'gflow_gallery_projects',
  title: 'Gallery: projects',
  description: 'Every catalogued project with its counts, Flow link and last activity, most recently active first.',
  ...galleryRead,
  input: z.object({}),
  output: z.custom<{ status: 'ok'; projects: GalleryProject[] }>(),
  handler: async (_input, { runtime }) => ({ status: 'ok' as const, projects: galleryProjects(runtime.catalog) }),
});

export const galleryMediaOperation = defineOperation({
  name: 'galleryMedia',
  mcpName: 'gflow_gallery_media',
  title: 'Gallery: media grid',
  description:
    'The newest catalogued media matching every filter given (project, kind, model, profile, dates, prompt words).',
  ...galleryRead,
  input: z.object({
    project: z.string().trim().regex(FLOW_ID).optional(),
    kind: z.enum(['image', 'video']).optional(),
    model: z.string().trim().min(1).max(100).optional(),
    profile: z.string().trim().min(1).max(100).optional(),
    since: isoDay,
    until: isoDay,
    text: z.string().max(500).optional(),
    limit: z.number().int().min(1).max(GALLERY_PAGE_MAX).default(200),
  }),
  output: z.custom<{ status: 'ok' } & GalleryMediaPage>(),
  handler: async (input, { runtime }) => ({
    status: 'ok' as const,
    // On a fleet the grid is what every worker published (the shared catalog), its files on the shared mount.
    ...(runtime.fleet === undefined
      ? galleryMedia(runtime.catalog, input)
      : galleryMediaOf(await fleetRecentMedia(runtime.fleet, GALLERY_SCAN_PER_KIND), input)),
  }),
});

export const galleryMediaDetailOperation = defineOperation({
  name: 'galleryMediaDetail',
  mcpName: 'gflow_gallery_media_detail',
  title: 'Gallery: one media',
  description:
    'One catalogued media: every recorded parameter, its files, the operation that made it, its inputs and what was made from it.',
  ...galleryRead,
  input: z.object({ media_id: mediaId, profile: z.string().trim().min(1).max(100).optional() }),
  output: z.custom<{ status: 'ok'; media: GalleryMediaDetail }>(),
  handler: async (input, { runtime }) => {
    const media = await galleryMediaDetail(runtime.catalog, input.media_id, {
      outputDir: runtime.settings.outputDir,
      profile: input.profile,
      exists: (file) => fs.existsSync(file),
      tasks: runtime.queue,
    });
    if (!media)
      throw new ReferenceNotFoundError(`Media id ${input.media_id} is not in the local catalog.`, {
        extensions: { parameter: 'media_id' },
        remediationHint: 'Open the gallery’s grid to pick a catalogued media.',
      });
    return { status: 'ok' as const, media };
  },
});

export const galleryFailuresOperation = defineOperation({
  name: 'galleryFailures',
  mcpName: 'gflow_gallery_failures',
  title: 'Gallery: failures',
  description:
    'Failed operations with their title, detail, retryable, hint and incident id; billed-but-not-downloaded ones first with their recovery command.',
  ...galleryRead,
  input: z.object({ limit: z.number().int().min(1).max(1000).default(GALLERY_FAILURES_MAX) }),
  output: z.custom<{ status: 'ok'; failures: GalleryFailure[] }>(),
  handler: async (input, { runtime }) => ({
    status: 'ok' as const,
    failures: await galleryFailures(runtime.catalog, runtime.queue, input.limit),
  }),
});

export const galleryTasksOperation = defineOperation({
  name: 'galleryTasks',
  mcpName: 'gflow_gallery_tasks',
  title: 'Gallery: running tasks',
  description: 'Queued and running generation tasks of every process, with their last phase.',
  ...galleryRead,
  input: z.object({}),
  output: z.custom<{ status: 'ok'; tasks: GalleryTask[] }>(),
  // Through the queue port: this machine's catalog, or the whole fleet's queue.
  handler: async (_input, { runtime }) => ({ status: 'ok' as const, tasks: await galleryTasks(runtime.queue) }),
});

/** What the gallery may send for a media id: a catalogued file inside the output directory. */
export interface GalleryFileAnswer {
  readonly status: 'ok';
  readonly found: boolean;
  readonly path?: string;
  readonly bytes?: number;
  readonly mime_type?: string;
  readonly kind?: 'image' | 'video';
}

export const galleryFileOperation = defineOperation({
  name: 'galleryFile',
  mcpName: 'gflow_gallery_file',
  title: 'Gallery: a media file',
  description:
    'The newest catalogued local copy of a media id that lies inside the output directory and still has its recorded size; found=false otherwise. The path comes from the catalog, never from the caller.',
  ...galleryRead,
  input: z.object({ media_id: mediaId }),
  output: z.custom<GalleryFileAnswer>(),
  handler: async (input, { runtime }): Promise<GalleryFileAnswer> => {
    const file =
      runtime.fleet === undefined
        ? servableFile(runtime.catalog, input.media_id, runtime.settings.outputDir)
        : await fleetServableFile(runtime.fleet, input.media_id);
    return file
      ? { status: 'ok', found: true, path: file.path, bytes: file.bytes, mime_type: file.mimeType, kind: file.kind }
      : { status: 'ok', found: false };
  },
});

export const galleryThumbnailOperation = defineOperation({
  name: 'galleryThumbnail',
  mcpName: 'gflow_gallery_thumbnail',
  title: 'Gallery: a thumbnail',
  description:
    'A JPEG thumbnail (a poster frame for a video) of a media id, made once from its servable local file and cached under the home; found=false when there is no such file.',
  ...galleryRead,
  input: z.object({ media_id: mediaId }),
  output: z.custom<{ status: 'ok'; found: boolean; path?: string; kind?: 'image' | 'video' }>(),
  handler: async (input, { runtime }) => {
    const file =
      runtime.fleet === undefined
        ? servableFile(runtime.catalog, input.media_id, runtime.settings.outputDir, 'smallest')
        : await fleetServableFile(runtime.fleet, input.media_id);
    if (!file) return { status: 'ok' as const, found: false };
    const thumbnail = await runtime.thumbnails.thumbnailOf(file);
    return { status: 'ok' as const, found: true, path: thumbnail, kind: file.kind };
  },
});

export const galleryMoviesOperation = defineOperation({
  name: 'galleryMovies',
  mcpName: 'gflow_gallery_movies',
  title: 'Gallery: movies',
  description:
    'The movies (story runs: movie run, video extend -n) of the catalog, newest first, with their title, status, clip count and length.',
  ...galleryRead,
  input: z.object({ limit: z.number().int().min(1).max(GALLERY_PAGE_MAX).default(200) }),
  output: z.custom<{ status: 'ok' } & GalleryMoviePage>(),
  handler: async (input, { runtime }) => ({ status: 'ok' as const, ...(await galleryMovies(runtime.queue, input)) }),
});

const movieId = z.string().trim().regex(RUN_ID).describe('A movie id (its story run’s task id).');

export const galleryMovieDetailOperation = defineOperation({
  name: 'galleryMovieDetail',
  mcpName: 'gflow_gallery_movie_detail',
  title: 'Gallery: one movie',
  description:
    'One movie: its status, each step (scene, mode, prompt, media, error), the stitched clips in order with their in/out points, and whether its file and timeline may be served.',
  ...galleryRead,
  input: z.object({ movie_id: movieId }),
  output: z.custom<{ status: 'ok'; movie: GalleryMovieDetail }>(),
  handler: async (input, { runtime }) => {
    const movie = await galleryMovieDetail(runtime.queue, input.movie_id, runtime.settings.outputDir);
    if (!movie)
      throw new ReferenceNotFoundError(`No movie ${input.movie_id} in the local catalog.`, {
        extensions: { parameter: 'movie_id' },
        remediationHint: 'Open the gallery’s movies page to pick a catalogued movie.',
      });
    return { status: 'ok' as const, movie };
  },
});

/** What the gallery may send for a movie: the stitched file or its timeline a completed story run recorded. */
export interface GalleryMovieFileAnswer {
  readonly status: 'ok';
  readonly found: boolean;
  readonly path?: string;
  readonly bytes?: number;
  readonly mime_type?: string;
}

export const galleryMovieFileOperation = defineOperation({
  name: 'galleryMovieFile',
  mcpName: 'gflow_gallery_movie_file',
  title: 'Gallery: a movie file',
  description:
    'The stitched MP4 (part=movie) or the OpenTimelineIO timeline (part=timeline) a completed movie recorded, when it still lies where the run wrote it (inside the output directory, or the directory it was asked to write into) and the MP4 has its recorded size; found=false otherwise. The path comes from the catalog, never from the caller.',
  ...galleryRead,
  input: z.object({ movie_id: movieId, part: z.enum(['movie', 'timeline']).default('movie') }),
  output: z.custom<GalleryMovieFileAnswer>(),
  handler: async (input, { runtime }): Promise<GalleryMovieFileAnswer> => {
    const file = await servableMovieFile(runtime.queue, input.movie_id, runtime.settings.outputDir, input.part);
    return file
      ? { status: 'ok', found: true, path: file.path, bytes: file.bytes, mime_type: file.mimeType }
      : { status: 'ok', found: false };
  },
});

export const GALLERY_OPERATIONS = [
  galleryProjectsOperation,
  galleryMediaOperation,
  galleryMediaDetailOperation,
  galleryFailuresOperation,
  galleryTasksOperation,
  galleryFileOperation,
  galleryThumbnailOperation,
  galleryMoviesOperation,
  galleryMovieDetailOperation,
  galleryMovieFileOperation,
] as const;
