import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Catalog, TaskQueue, TaskRecord } from '@gflow/catalog';
import type { MediaRenderer } from '@gflow/driver';
import { isMp4, mimeOf, sniffMedia } from '@gflow/flow-facts';
import type { HomeLayout } from '../home/homeLayout.js';
import { findBrowserExecutable } from '../jobs/browserLaunch.js';
import { timelineFileOf } from '../movie/timeline.js';
import { writeFileAtomic } from '../output/atomicWrite.js';
import { readFileHead } from '../output/fileHead.js';
import type { ResolvedSettings } from '../settings/loadSettings.js';
import { FLOW_ID, RUN_ID } from '../schemas/flowIdPattern.js';

/** The longer edge of a gallery thumbnail, in pixels. */
export const THUMBNAIL_EDGE = 480;
/** The thumbnail browser closes after this long without work. */
export const RENDERER_IDLE_MS = 30_000;

/** A local copy the gallery may serve: recorded in the catalog, where gflow wrote it (servableFrom), the recorded size. */
export interface ServableFile {
  readonly mediaId: string;
  readonly kind: 'image' | 'video';
  /** Real path (symlinks resolved): inside the output directory, or in the directory gflow wrote it into. */
  readonly path: string;
  readonly bytes: number;
  readonly mimeType: string;
  /** The catalog's SHA-256 of the bytes, when recorded. */
  readonly sha256: string | null;
  readonly mtimeMs: number;
}

function realpathOrUndefined(file: string): string | undefined {
  try {
    return fs.realpathSync(file);
  } catch {
    return undefined;
  }
}

/**
 * The one rule for where the gallery may serve a catalogued copy from (its real path, symlinks
 * followed): inside the output directory, or in the very directory gflow wrote it into, as that
 * resolved when it was written (`-o FILE`, `--out DIR`, `out_dir`; local_files.written_dir). A file
 * swapped since for a link that leads elsewhere resolves elsewhere, and is not served.
 */
export function servableFrom(outputRoot: string | undefined, real: string, writtenDir: string | null): boolean {
  if (outputRoot !== undefined && isInside(outputRoot, real)) return true;
  return writtenDir !== null && path.isAbsolute(writtenDir) && path.dirname(real) === writtenDir;
}

/** Whether the gallery may serve this catalogued copy (servableFrom, on the disk as it is now). */
export function isServable(
  outputDir: string,
  file: { readonly path: string; readonly writtenDir: string | null },
): boolean {
  const real = realpathOrUndefined(file.path);
  return real !== undefined && servableFrom(realpathOrUndefined(outputDir), real, file.writtenDir);
}

/** Whether `file` lies inside `dir` (both absolute, already resolved): no `..` escape, not `dir` itself. */
function isInside(dir: string, file: string): boolean {
  const relative = path.relative(dir, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/**
 * A catalogued local copy of a media id that the gallery may serve: the newest (the page shows
 * it: an upscale is a newer copy), or the smallest (a thumbnail needs no 4K upscale). The path
 * comes from the catalog only (never from a request): it must resolve, symlinks followed, inside
 * the output directory or in the directory gflow wrote it into (servableFrom), be a regular file
 * and still have the size the catalog recorded.
 */
export function servableFile(
  catalog: Catalog,
  mediaId: string,
  outputDir: string,
  prefer: 'newest' | 'smallest' = 'newest',
): ServableFile | undefined {
  if (!FLOW_ID.test(mediaId)) return undefined;
  const root = realpathOrUndefined(outputDir);
  for (const candidate of catalog.media.lookup(mediaId)) {
    const local = candidate.files.filter((file) => file.storageProvider === null);
    const files = prefer === 'newest' ? local.reverse() : local.sort((a, b) => a.bytes - b.bytes);
    for (const file of files) {
      const real = realpathOrUndefined(file.path);
      if (real === undefined || !servableFrom(root, real, file.writtenDir)) continue;
      let stat: fs.Stats;
      try {
        stat = fs.statSync(real);
      } catch {
        continue;
      }
      if (!stat.isFile() || stat.size !== file.bytes) continue;
      const sniffed = sniffMedia(readFileHead(real));
      const mimeType = sniffed === null ? (file.mediaType ?? 'application/octet-stream') : mimeOf(sniffed);
      return {
        mediaId,
        kind: candidate.asset.kind,
        path: real,
        bytes: stat.size,
        mimeType,
        sha256: file.sha256,
        mtimeMs: stat.mtimeMs,
      };
    }
  }
  return undefined;
}

/** A movie's stitched file or its timeline, as the gallery may serve it (servableMovieFile). */
export interface ServableMovieFile {
  /** Real path (symlinks resolved). */
  readonly path: string;
  readonly bytes: number;
  readonly mimeType: 'video/mp4' | 'application/json';
}

/** A movie's task type: its story run's (`movie run`, `video extend -n`; runRequest's `run`). */
export const STORY_TASK_TYPE = 'story';

/** The two files of a movie the gallery serves: the stitched MP4, and its OpenTimelineIO timeline (JSON). */
export type MoviePart = 'movie' | 'timeline';

/**
 * Where a completed story row says the part was written, and its recorded size: only the target the
 * run was asked for before it ran (its request's `output`, and the timeline gflow writes beside it),
 * and only when the result names that very path.
 */
function recordedMoviePart(
  record: TaskRecord | undefined,
  part: MoviePart,
): { readonly file: string; readonly bytes: number | null } | undefined {
  if (record?.taskType !== STORY_TASK_TYPE || record.status !== 'completed') return undefined;
  const target = (record.payload as { output?: unknown }).output;
  const result = record.result as {
    status?: unknown;
    output?: { path?: unknown; bytes?: unknown } | null;
    timeline?: unknown;
  } | null;
  if (typeof target !== 'string' || !/\.mp4$/i.test(target) || result?.status !== 'completed') return undefined;
  if (part === 'timeline') {
    const timeline = timelineFileOf(target);
    return result.timeline === timeline ? { file: timeline, bytes: null } : undefined;
  }
  const bytes = result.output?.bytes;
  return result.output?.path === target && typeof bytes === 'number' ? { file: target, bytes } : undefined;
}

/**
 * A movie's stitched file (or its timeline) that the gallery may serve: only what a completed story
 * row of this catalog recorded (never a path from a request), under servableFrom's rule — inside the
 * output directory, or in the very directory the run wrote it into (its recorded target's) — a
 * regular file that still has its recorded size and is an MP4 (the timeline: a regular `.otio`).
 */
export async function servableMovieFile(
  queue: Pick<TaskQueue, 'get'>,
  movieId: string,
  outputDir: string,
  part: MoviePart = 'movie',
): Promise<ServableMovieFile | undefined> {
  if (!RUN_ID.test(movieId)) return undefined;
  const recorded = recordedMoviePart(await queue.get(movieId), part);
  if (recorded === undefined || !path.isAbsolute(recorded.file)) return undefined;
  const real = realpathOrUndefined(recorded.file);
  if (real === undefined || !servableFrom(realpathOrUndefined(outputDir), real, path.dirname(recorded.file)))
    return undefined;
  try {
    const stat = fs.statSync(real);
    if (!stat.isFile() || (recorded.bytes !== null && stat.size !== recorded.bytes)) return undefined;
    if (part === 'timeline') return { path: real, bytes: stat.size, mimeType: 'application/json' };
    return isMp4(readFileHead(real)) ? { path: real, bytes: stat.size, mimeType: 'video/mp4' } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Thumbnails made once from the local files and kept in `dir`, named by the file's content
 * (its catalogued SHA-256, else its path, size and mtime), so a replaced file gets a new one.
 * One browser without a profile makes them, started on first need and closed when idle.
 */
export class ThumbnailCache {
  readonly #dir: string;
  readonly #open: () => Promise<MediaRenderer>;
  readonly #idleMs: number;
  #renderer: Promise<MediaRenderer> | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  #busy = 0;
  readonly #inflight = new Map<string, Promise<string>>();

  constructor(dir: string, open: () => Promise<MediaRenderer>, idleMs = RENDERER_IDLE_MS) {
    this.#dir = dir;
    this.#open = open;
    this.#idleMs = idleMs;
  }

  /** The cached thumbnail's path, made now if needed. */
  async thumbnailOf(file: ServableFile, edge = THUMBNAIL_EDGE): Promise<string> {
    const key = createHash('sha256')
      .update(file.sha256 ?? `${file.path}\u0000${file.bytes}\u0000${file.mtimeMs}`)
      .digest('hex')
      .slice(0, 32);
    const target = path.join(this.#dir, `${key}-${edge}.jpg`);
    if (fs.existsSync(target)) return target;
    const running = this.#inflight.get(target);
    if (running) return running;
    const made = this.#make(file, edge, target).finally(() => this.#inflight.delete(target));
    this.#inflight.set(target, made);
    return made;
  }

  async #make(file: ServableFile, edge: number, target: string): Promise<string> {
    this.#busy += 1;
    clearTimeout(this.#idleTimer);
    try {
      this.#renderer ??= this.#open().catch((error: unknown) => {
        this.#renderer = undefined;
        throw error;
      });
      const renderer = await this.#renderer;
      const bytes = await fs.promises.readFile(file.path);
      const thumbnail = await renderer.thumbnail(bytes, file.kind, edge);
      fs.mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
      await writeFileAtomic(target, thumbnail.jpeg);
      return target;
    } finally {
      this.#busy -= 1;
      if (this.#busy === 0) {
        this.#idleTimer = setTimeout(() => void this.close(), this.#idleMs);
        this.#idleTimer.unref();
      }
    }
  }

  /** Closes the browser (a later thumbnail starts it again). */
  async close(): Promise<void> {
    clearTimeout(this.#idleTimer);
    const renderer = this.#renderer;
    this.#renderer = undefined;
    if (renderer) await (await renderer.catch(() => undefined))?.close();
  }
}

/** The runtime's thumbnail cache: `<home>/cache/thumbnails`, made by the browser gflow would launch (no profile). */
export function createThumbnailCache(
  settings: Pick<ResolvedSettings, 'browserExecutable' | 'browserArgs'>,
  layout: Pick<HomeLayout, 'cacheDir'>,
): ThumbnailCache {
  return new ThumbnailCache(path.join(layout.cacheDir, 'thumbnails'), async () => {
    const { openMediaRenderer } = await import('@gflow/driver');
    const executablePath = findBrowserExecutable(settings);
    return openMediaRenderer({
      ...(executablePath ? { executablePath } : { channel: 'chrome' as const }),
      extraArgs: settings.browserArgs,
    });
  });
}
