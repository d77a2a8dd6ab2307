import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { mimeOf, sniffMedia } from '@gflow/flow-facts';
import { writeFileAtomic } from '../output/atomicWrite.js';

export type MediaKind = 'image' | 'video';

/** Extension (no dot) from magic bytes, never from a URL or a model's claim (the sniffer of @gflow/flow-facts). */
export function extensionOf(bytes: Uint8Array): string | undefined {
  return sniffMedia(bytes)?.slice(1);
}

export interface TargetOptions {
  readonly outputDir: string;
  readonly kind: MediaKind;
  readonly mediaId: string;
  /** 1-based position among the results of one generation. */
  readonly index: number;
  readonly count: number;
  readonly extension: string;
  /** An explicit output file (already confined / checked by the caller). */
  readonly outputFile?: string | undefined;
  /** A directory to write into flat, each file named by its media id (already checked by the caller). */
  readonly flatDir?: string | undefined;
  readonly now?: Date;
}

/** Extensions that say what a media file is; `.jpeg` and `.jpg` say the same. */
const MEDIA_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.webp', '.gif', '.mp4', '.webm', '.mov']);
const sameKind = (a: string, b: string): boolean => a === b || (/^\.jpe?g$/.test(a) && /^\.jpe?g$/.test(b));

/**
 * Where a result goes: `images/<date>/<media>_<n>.<ext>` or
 * `videos/<date>/<media>.mp4` under the output dir, `<dir>/<media>.<ext>` flat in a directory, or
 * the explicit file (`stem_1`, `stem_2` … when there are several). The extension always says what
 * the bytes are: an explicit name without one gets it, a media extension that says otherwise
 * (`.png` on JPEG bytes) is replaced, any other suffix is kept and the extension added.
 */
export function targetPathFor(options: TargetOptions): string {
  const ext = `.${options.extension}`;
  if (options.outputFile) {
    const parsed = path.parse(options.outputFile);
    const asked = parsed.ext.toLowerCase();
    const kept = MEDIA_EXTENSIONS.has(asked) ? sameKind(asked, ext) : false;
    const base = MEDIA_EXTENSIONS.has(asked) ? parsed.name : parsed.base;
    const stem = options.count > 1 ? `${base}_${options.index}` : base;
    return path.join(parsed.dir, `${stem}${kept ? parsed.ext : ext}`);
  }
  if (options.flatDir) return path.join(options.flatDir, `${options.mediaId}${ext}`);
  const date = (options.now ?? new Date()).toISOString().slice(0, 10);
  if (options.kind === 'video') return path.join(options.outputDir, 'videos', date, `${options.mediaId}${ext}`);
  return path.join(options.outputDir, 'images', date, `${options.mediaId}_${options.index}${ext}`);
}

/**
 * The files an explicit output may become, known before the bytes are: the name as asked (or its
 * `_n` variants) — what a run without overwrite refuses to replace before anything is sent.
 */
export function askedPathsFor(outputFile: string, count: number): string[] {
  if (count <= 1) return [outputFile];
  const parsed = path.parse(outputFile);
  const known = MEDIA_EXTENSIONS.has(parsed.ext.toLowerCase());
  const base = known ? parsed.name : parsed.base;
  return Array.from({ length: count }, (_, i) => path.join(parsed.dir, `${base}_${i + 1}${known ? parsed.ext : ''}`));
}

/** `target`, or when a file is already there `stem-2.ext`, `stem-3.ext`, …: a run never replaces a file it did not ask to. */
export function freeVariantOf(target: string): string {
  if (!fs.existsSync(target)) return target;
  const parsed = path.parse(target);
  for (let n = 2; ; n += 1) {
    const candidate = path.join(parsed.dir, `${parsed.name}-${n}${parsed.ext}`);
    if (!fs.existsSync(candidate)) return candidate;
  }
}

export interface WrittenFile {
  readonly path: string;
  readonly bytes: number;
  readonly sha256: string;
  readonly mediaType: string;
}

/** Writes atomically and returns what the catalog records. */
export async function writeMedia(target: string, bytes: Uint8Array, extension: string): Promise<WrittenFile> {
  await writeFileAtomic(target, bytes);
  return {
    path: target,
    bytes: bytes.byteLength,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    mediaType: mimeOf(extension),
  };
}
