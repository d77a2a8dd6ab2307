import { BadParameterError, ReferenceNotFoundError } from '@gflow/errors';
import type { CatalogContext } from '../context.js';
import { assertFlowId, assertProfileName } from '../validation.js';
import type { AssetRow } from './assetsRepo.js';
import { LOCAL_FILES_BY_ASSET_SQL, type LocalFileRow, type LocalFilesRepo } from './localFilesRepo.js';

/** One catalogued asset carrying the media id, with its copies and prompt. */
export interface MediaCandidate {
  readonly asset: AssetRow;
  readonly files: readonly LocalFileRow[];
  readonly prompt: string | null;
  readonly promptHash: string | null;
}

export interface MediaLookupOptions {
  /** Omitted = search every profile. */
  readonly profile?: string;
}

export interface MediaLookup {
  /** Every asset with this media id (one per profile at most), newest first. Never throws on ambiguity. */
  lookup(mediaId: string, options?: MediaLookupOptions): MediaCandidate[];
  /**
   * Exactly one candidate, or a typed error: none → ReferenceNotFoundError
   * (exit 32); several (the same id in more than one profile) →
   * BadParameterError whose `extensions.candidates` lists `{profile, project_id, kind}`
   * so the caller can ask for `--profile`.
   */
  requireOne(mediaId: string, options?: MediaLookupOptions): MediaCandidate;
}

const ASSET_COLUMNS = `id, profile_name AS profileName, flow_project_id AS flowProjectId, flow_media_id AS flowMediaId,
  flow_workflow_id AS flowWorkflowId, flow_media_generation_id AS flowMediaGenerationId, kind, status, model,
  aspect_ratio AS aspectRatio, width, height, duration_seconds AS durationSeconds, seed, display_name AS displayName,
  display_name_hash AS displayNameHash, metadata_json AS metadataJson, created_at AS createdAt, updated_at AS updatedAt`;

/** The media lookup queries, exported so the bench and the plan test run the same SQL. */
export const MEDIA_LOOKUP_SQL = {
  all: `SELECT ${ASSET_COLUMNS} FROM assets WHERE flow_media_id = ? ORDER BY created_at DESC, id DESC`,
  byProfile: `SELECT ${ASSET_COLUMNS} FROM assets WHERE profile_name = ? AND flow_media_id = ?`,
  prompt: `SELECT o.prompt, o.prompt_hash AS promptHash FROM operation_assets oa JOIN operations o ON o.id = oa.operation_id
    WHERE oa.asset_id = ? AND oa.role = 'output' ORDER BY oa.operation_id DESC LIMIT 1`,
  files: LOCAL_FILES_BY_ASSET_SQL,
} as const;

export function createMediaLookup(ctx: CatalogContext, localFilesRepo: LocalFilesRepo): MediaLookup {
  const all = ctx.db.prepare(MEDIA_LOOKUP_SQL.all);
  const byProfile = ctx.db.prepare(MEDIA_LOOKUP_SQL.byProfile);
  const prompt = ctx.db.prepare(MEDIA_LOOKUP_SQL.prompt);

  const lookup = (mediaId: string, options: MediaLookupOptions = {}): MediaCandidate[] => {
    assertFlowId(mediaId, 'media_id');
    const assets = (
      options.profile === undefined ? all.all(mediaId) : byProfile.all(assertProfileName(options.profile), mediaId)
    ) as AssetRow[];
    return assets.map((asset) => {
      const p = prompt.get(asset.id) as { prompt: string | null; promptHash: string | null } | undefined;
      return {
        asset,
        files: localFilesRepo.listForAsset(asset.id),
        prompt: p?.prompt ?? null,
        promptHash: p?.promptHash ?? null,
      };
    });
  };

  return {
    lookup,
    requireOne(mediaId, options = {}) {
      const candidates = lookup(mediaId, options);
      const [first, ...rest] = candidates;
      if (first === undefined) {
        throw new ReferenceNotFoundError('This media id is not in the local catalog.', {
          extensions: { media_id: mediaId },
        });
      }
      if (rest.length > 0) {
        throw new BadParameterError('This media id is catalogued under more than one profile; name the profile.', {
          extensions: {
            parameter: 'profile',
            candidates: candidates.map((c) => ({
              profile: c.asset.profileName,
              project_id: c.asset.flowProjectId,
              kind: c.asset.kind,
            })),
          },
        });
      }
      return first;
    },
  };
}
