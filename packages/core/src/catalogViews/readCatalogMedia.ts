import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Catalog, LocalFileRow } from '@gflow/catalog';
import { mimeOf, sniffMedia } from '@gflow/flow-facts';
import { FLOW_ID } from '../schemas/flowIdPattern.js';

/** Largest file gflow://media/{media_id} serves (base64 makes the reply a third larger). */
export const MEDIA_RESOURCE_CAP_BYTES = 20 * 1024 * 1024;

export type CatalogMediaRead =
  | { readonly found: true; readonly bytes: Buffer; readonly mimeType: string; readonly kind: string }
  | { readonly found: false; readonly reason: 'unknown-id' | 'no-verified-file' }
  | { readonly found: false; readonly reason: 'too-large'; readonly bytes: number; readonly kind: string };

/**
 * The bytes of a catalogued asset, from its newest local copy whose size and
 * SHA-256 still match the catalog. Copies above the cap are not hashed; when
 * only such copies exist the answer is `too-large`. The bytes actually read
 * are hashed again, so a file swapped between the check and the read is
 * refused too.
 */
export async function readCatalogMedia(
  catalog: Pick<Catalog, 'media' | 'localFiles'>,
  mediaId: string,
  cap = MEDIA_RESOURCE_CAP_BYTES,
): Promise<CatalogMediaRead> {
  if (!FLOW_ID.test(mediaId)) return { found: false, reason: 'unknown-id' };
  const candidates = catalog.media.lookup(mediaId);
  if (candidates.length === 0) return { found: false, reason: 'unknown-id' };
  let oversized: { bytes: number; kind: string } | undefined;
  for (const candidate of candidates) {
    const local = candidate.files.filter((file) => file.storageProvider === null).reverse();
    for (const file of local) {
      if (file.bytes > cap) {
        oversized ??= { bytes: file.bytes, kind: candidate.asset.kind };
        continue;
      }
      const bytes = await readVerified(catalog, file);
      if (bytes)
        return {
          found: true,
          bytes,
          mimeType: sniffedType(bytes) ?? file.mediaType ?? 'application/octet-stream',
          kind: candidate.asset.kind,
        };
    }
  }
  return oversized ? { found: false, reason: 'too-large', ...oversized } : { found: false, reason: 'no-verified-file' };
}

async function readVerified(
  catalog: Pick<Catalog, 'media' | 'localFiles'>,
  file: LocalFileRow,
): Promise<Buffer | undefined> {
  if (!(await catalog.localFiles.verify(file, { checkSha256: true }))) return undefined;
  try {
    const bytes = await readFile(file.path);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    return bytes.length === file.bytes && sha256 === file.sha256 ? bytes : undefined;
  } catch {
    return undefined;
  }
}

/** The media type the leading bytes show (PNG, JPEG, GIF, WebP, MP4 `ftyp`), or undefined. */
function sniffedType(bytes: Uint8Array): string | undefined {
  const extension = sniffMedia(bytes);
  return extension === null ? undefined : mimeOf(extension);
}

/** What a hash check found for a file as it stood (path, size, mtime): a listing re-hashes nothing unchanged. */
const HASHED = new Map<string, boolean>();
const HASHED_LIMIT = 4096;

async function matchesCatalog(catalog: Pick<Catalog, 'localFiles'>, file: LocalFileRow): Promise<boolean> {
  let key: string;
  try {
    const stat = statSync(file.path);
    key = `${file.path}\0${stat.size}\0${stat.mtimeMs}\0${file.sha256 ?? ''}`;
  } catch {
    return false;
  }
  const known = HASHED.get(key);
  if (known !== undefined) return known;
  const ok = (await catalog.localFiles.verify(file, { checkSha256: true })) !== null;
  if (HASHED.size >= HASHED_LIMIT) HASHED.clear();
  HASHED.set(key, ok);
  return ok;
}

/**
 * Whether gflow://media/{media_id} can serve an asset, for the listings that offer it: a local copy
 * whose size and SHA-256 still match the catalog (the read's own rule), or one above the cap whose
 * size matches (its read names the file instead). A file moved, deleted or edited since it was
 * catalogued is not offered.
 */
export async function isServable(
  catalog: Pick<Catalog, 'media' | 'localFiles'>,
  mediaId: string,
  cap = MEDIA_RESOURCE_CAP_BYTES,
): Promise<boolean> {
  if (!FLOW_ID.test(mediaId)) return false;
  for (const candidate of catalog.media.lookup(mediaId)) {
    for (const file of candidate.files.filter((f) => f.storageProvider === null)) {
      if (file.bytes > cap ? (await catalog.localFiles.verify(file)) !== null : await matchesCatalog(catalog, file))
        return true;
    }
  }
  return false;
}
