import { createHash } from 'node:crypto';
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
  readonly now?: Date;
}

/**
 * Where a result goes: `images/<date>/<media>_<n>.<ext>` or
 * `videos/<date>/<media>.mp4` under the output dir, or the explicit file
 * (`stem_1.ext`, `stem_2.ext` … when there are several).
 */
export function targetPathFor(options: TargetOptions): string {
  if (options.outputFile) {
    const parsed = path.parse(options.outputFile);
    const ext = parsed.ext || `.${options.extension}`;
    const stem = options.count > 1 ? `${parsed.name}_${options.index}` : parsed.name;
    return path.join(parsed.dir, `${stem}${ext}`);
  }
  const date = (options.now ?? new Date()).toISOString().slice(0, 10);
  if (options.kind === 'video')
    return path.join(options.outputDir, 'videos', date, `${options.mediaId}.${options.extension}`);
  return path.join(options.outputDir, 'images', date, `${options.mediaId}_${options.index}.${options.extension}`);
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
