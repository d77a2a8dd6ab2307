import { ReferenceNotFoundError, ReferenceNotOnDiskError, ReferenceNotUsableError } from '@gflow/errors';
import type { AssetRow } from './assetsRepo.js';
import type { LocalFilesRepo, VerifiedLocalFile } from './localFilesRepo.js';
import type { MediaLookup } from './mediaLookup.js';

/** What a media UUID reference resolves to: the asset, how Flow names it, a verified local copy. */
export interface ResolvedReference {
  readonly asset: AssetRow;
  /** Recorded display name (null when unknown or in redacted mode). */
  readonly displayName: string | null;
  readonly localFile: VerifiedLocalFile | null;
}

export interface ResolveOptions {
  readonly profile: string;
  /** Re-hash the file and compare with the recorded SHA-256 (default true). */
  readonly checkSha256?: boolean;
}

export interface ReferenceResolver {
  /** Image refs (i2i): enrich when catalogued, `null` (pass through) when unknown. */
  imageRef(mediaId: string, options: ResolveOptions): Promise<ResolvedReference | null>;
  /**
   * i2v frames: must be a catalogued image asset (else ReferenceNotFoundError),
   * with a display name or a verified local file (else ReferenceNotUsableError).
   */
  frame(mediaId: string, options: ResolveOptions): Promise<ResolvedReference>;
  /** r2v refs: a catalogued asset with a verified local file, else ReferenceNotFound / ReferenceNotOnDisk. */
  onDisk(
    mediaId: string,
    options: ResolveOptions,
  ): Promise<ResolvedReference & { readonly localFile: VerifiedLocalFile }>;
}

export function createReferenceResolver(media: MediaLookup, localFilesRepo: LocalFilesRepo): ReferenceResolver {
  const resolve = async (mediaId: string, options: ResolveOptions): Promise<ResolvedReference | null> => {
    const candidate = media.lookup(mediaId, { profile: options.profile })[0];
    if (candidate === undefined) return null;
    const localFile = await localFilesRepo.firstVerified(candidate.asset.id, {
      checkSha256: options.checkSha256 ?? true,
    });
    return { asset: candidate.asset, displayName: candidate.asset.displayName, localFile };
  };
  const notFound = (mediaId: string): ReferenceNotFoundError =>
    new ReferenceNotFoundError('The media id is not in the local asset catalog for this profile.', {
      extensions: { media_id: mediaId },
    });

  return {
    imageRef: resolve,
    async frame(mediaId, options) {
      const resolved = await resolve(mediaId, options);
      if (resolved === null) throw notFound(mediaId);
      if (resolved.asset.kind !== 'image') {
        throw new ReferenceNotUsableError('The media id names a video; a frame must be an image.', {
          extensions: { media_id: mediaId },
        });
      }
      if (resolved.displayName === null && resolved.localFile === null) {
        throw new ReferenceNotUsableError(
          'The catalogued image has neither a display name nor a verified local file.',
          {
            extensions: { media_id: mediaId },
          },
        );
      }
      return resolved;
    },
    async onDisk(mediaId, options) {
      const resolved = await resolve(mediaId, options);
      if (resolved === null) throw notFound(mediaId);
      const { localFile } = resolved;
      if (localFile === null) {
        throw new ReferenceNotOnDiskError('No local copy of this asset exists with the recorded size and SHA-256.', {
          extensions: { media_id: mediaId },
        });
      }
      return { ...resolved, localFile };
    },
  };
}
