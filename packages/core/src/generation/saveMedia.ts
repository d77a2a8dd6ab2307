import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Catalog } from '@gflow/catalog';
import { OutputWriteFailedError, isGflowError } from '@gflow/errors';
import { type MediaExtension, mimeOf } from '@gflow/flow-facts';
import { writeFileAtomic } from '../output/atomicWrite.js';

/**
 * The one path from fetched bytes to a file on disk and its catalog row, for every operation that
 * saves media (a generation's results, `downloadMedia`, the upscales). The bytes arrive verified by
 * the driver, with the extension its sniff of their magic bytes gave (`.png`, `.mp4`: one format,
 * with the dot); the name always says what the bytes are.
 */

export type MediaKind = 'image' | 'video';

/** Where one file goes. */
export type SaveTarget =
  /** A name the user chose (`-o`, `output`): `stem_1`, `stem_2` … when there are several; never replaced unless overwrite. */
  | {
      readonly kind: 'file';
      readonly file: string;
      /** 1-based position among the results of one run. */
      readonly index: number;
      readonly count: number;
      readonly overwrite: boolean;
    }
  /** Flat in a directory the user named (`--out DIR`, `out_dir`). */
  | { readonly kind: 'dir'; readonly dir: string; readonly stem: string }
  /** The output dir's layout: `images/<date>/…`, `videos/<date>/…`. */
  | {
      readonly kind: 'layout';
      readonly outputDir: string;
      readonly media: MediaKind;
      readonly stem: string;
      readonly now?: Date;
    };

/** Extensions that say what a media file is; `.jpeg` and `.jpg` say the same. */
const MEDIA_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.webp', '.gif', '.mp4', '.webm', '.mov']);
const sameKind = (a: string, b: string): boolean => a === b || (/^\.jpe?g$/.test(a) && /^\.jpe?g$/.test(b));

/**
 * The path a target names for bytes of `extension`. An explicit name without an extension gets
 * it, a media extension that says otherwise (`.png` on JPEG bytes) is replaced, any other suffix
 * is kept and the extension added.
 */
export function targetPathFor(target: SaveTarget, extension: MediaExtension): string {
  switch (target.kind) {
    case 'file': {
      const parsed = path.parse(target.file);
      const asked = parsed.ext.toLowerCase();
      const kept = MEDIA_EXTENSIONS.has(asked) ? sameKind(asked, extension) : false;
      const base = MEDIA_EXTENSIONS.has(asked) ? parsed.name : parsed.base;
      const stem = target.count > 1 ? `${base}_${target.index}` : base;
      return path.join(parsed.dir, `${stem}${kept ? parsed.ext : extension}`);
    }
    case 'dir':
      return path.join(target.dir, `${target.stem}${extension}`);
    case 'layout': {
      const date = (target.now ?? new Date()).toISOString().slice(0, 10);
      const tree = target.media === 'video' ? 'videos' : 'images';
      return path.join(target.outputDir, tree, date, `${target.stem}${extension}`);
    }
  }
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

/** What a written name says that was not asked: the extension the bytes set, a variant of a taken name. */
function namingNotes(asked: string, named: string, written: string, extension: MediaExtension): string[] {
  const notes: string[] = [];
  const askedExt = path.extname(asked).toLowerCase();
  if (path.extname(named) !== path.extname(asked))
    notes.push(
      `${path.basename(named)}: the file is ${extension.slice(1).toUpperCase()}, so it is named ${extension}${askedExt ? ` (not ${askedExt})` : ''}.`,
    );
  if (written !== named)
    notes.push(`${path.basename(named)} was already there and is kept; wrote ${path.basename(written)}.`);
  return notes;
}

/** The real path (symlinks resolved) of the directory holding `file`, or null when it cannot be resolved. */
function realDirOf(file: string): string | null {
  try {
    return fs.realpathSync(path.dirname(file));
  } catch {
    return null;
  }
}

/** A path for a message: relative to the output dir when inside it (MCP envelopes carry no home paths). */
export function shownPath(outputDir: string, target: string): string {
  const relative = path.relative(outputDir, target);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : target;
}

/** Fetched bytes of one catalogued asset. */
export interface MediaBytes {
  readonly assetId: number;
  readonly mediaId: string;
  readonly bytes: Uint8Array;
  /** From the driver's sniff of the magic bytes. */
  readonly extension: MediaExtension;
}

/** A written file, as the catalog recorded it, and what its name says that was not asked. */
export interface SavedMedia {
  readonly path: string;
  readonly bytes: number;
  readonly sha256: string;
  readonly mediaType: string;
  readonly notes: readonly string[];
}

/**
 * Writes the bytes atomically (temp + fsync + rename) where the target says, and records the file
 * on its asset. A name the user chose is never replaced unless asked: one taken since the check
 * before the submit, or one whose extension the bytes changed, gets a free variant. A write that
 * fails names the media and how to fetch it again (`recovery`), which spends nothing.
 */
export async function saveMedia(
  catalog: Pick<Catalog, 'localFiles'>,
  media: MediaBytes,
  target: SaveTarget,
  context: { readonly outputDir: string; readonly recovery: string },
): Promise<SavedMedia> {
  const named = targetPathFor(target, media.extension);
  const file = target.kind === 'file' && !target.overwrite ? freeVariantOf(named) : named;
  try {
    await writeFileAtomic(file, media.bytes);
  } catch (error) {
    if (isGflowError(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new OutputWriteFailedError(
      `Could not write ${shownPath(context.outputDir, file)} (${code}). ${context.recovery}`,
      { cause: error, retryable: false, extensions: { media_id: media.mediaId } },
    );
  }
  const saved = {
    path: file,
    bytes: media.bytes.byteLength,
    sha256: createHash('sha256').update(media.bytes).digest('hex'),
    mediaType: mimeOf(media.extension),
  };
  // Where it was written, as the disk resolves it now: the one other place the gallery serves from.
  catalog.localFiles.record({ assetId: media.assetId, ...saved, writtenDir: realDirOf(file) });
  return { ...saved, notes: target.kind === 'file' ? namingNotes(target.file, named, file, media.extension) : [] };
}
