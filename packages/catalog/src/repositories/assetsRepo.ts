import { and, eq, sql } from 'drizzle-orm';
import type { CatalogContext } from '../context.js';
import { sha256Text } from '../hashing.js';
import type { operationAssets } from '../schema/index.js';
import { assets } from '../schema/index.js';
import { assertFlowId, assertProfileName, optionalFlowId } from '../validation.js';
import type { ProfilesRepo } from './profilesRepo.js';
import type { ProjectsRepo } from './projectsRepo.js';

export type AssetRow = typeof assets.$inferSelect;
export type AssetKind = AssetRow['kind'];
export type AssetRole = (typeof operationAssets.$inferSelect)['role'];

export interface RecordAssetInput {
  readonly profile: string;
  readonly flowMediaId: string;
  readonly kind: AssetKind;
  readonly flowProjectId?: string | null;
  readonly flowWorkflowId?: string | null;
  readonly flowMediaGenerationId?: string | null;
  /** `ready` (default), `pending`, `failed`, … */
  readonly status?: string;
  readonly model?: string | null;
  readonly aspectRatio?: string | null;
  readonly width?: number | null;
  readonly height?: number | null;
  readonly durationSeconds?: number | null;
  readonly seed?: number | null;
  /** The name Flow lists the asset under (uploads). Not stored in redacted mode, only its hash. */
  readonly displayName?: string | null;
  /** Merged (JSON merge patch) into the stored metadata. */
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly createdAt?: string;
}

export interface AssetsRepo {
  /**
   * Inserts or updates the asset of (profile, flowMediaId). On update, fields
   * left undefined or null keep their stored value and metadata is merged.
   * Creates the profile and the project rows when missing.
   */
  record(input: RecordAssetInput): AssetRow;
  get(id: number): AssetRow | undefined;
  getByMediaId(profile: string, flowMediaId: string): AssetRow | undefined;
  /** The media ids the catalog knows in one Flow project of a profile (what a recovery must not adopt). */
  mediaIdsOfProject(profile: string, flowProjectId: string): string[];
  /** Links an asset to the operation that used or produced it (idempotent). */
  link(operationId: number, assetId: number, role: AssetRole, position?: number): void;
}

export function createAssetsRepo(
  ctx: CatalogContext,
  profilesRepo: ProfilesRepo,
  projectsRepo: ProjectsRepo,
): AssetsRepo {
  const linkStmt = ctx.db.prepare(
    `INSERT INTO operation_assets (operation_id, asset_id, role, position) VALUES (?, ?, ?, ?)
     ON CONFLICT (operation_id, asset_id, role) DO UPDATE SET position = excluded.position`,
  );
  return {
    record(input) {
      assertProfileName(input.profile);
      assertFlowId(input.flowMediaId, 'media_id');
      const flowProjectId = optionalFlowId(input.flowProjectId, 'project_id');
      const flowWorkflowId = optionalFlowId(input.flowWorkflowId, 'workflow_id');
      // A blank name is no name (it would find nothing in Flow's picker).
      const displayName = input.displayName?.trim() ? input.displayName : null;
      const storedName = ctx.historyPrompts === 'redacted' ? null : displayName;
      const nameHash = displayName === null ? null : sha256Text(displayName);
      const now = ctx.now();
      const fields = {
        flowProjectId,
        flowWorkflowId,
        flowMediaGenerationId: input.flowMediaGenerationId ?? null,
        model: input.model ?? null,
        aspectRatio: input.aspectRatio ?? null,
        width: input.width ?? null,
        height: input.height ?? null,
        durationSeconds: input.durationSeconds ?? null,
        seed: input.seed ?? null,
        displayName: storedName,
        displayNameHash: nameHash,
      };
      const updates = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null));
      return ctx.write(() => {
        profilesRepo.touch(input.profile);
        if (flowProjectId !== null) projectsRepo.ensure(input.profile, flowProjectId);
        return ctx.orm
          .insert(assets)
          .values({
            profileName: input.profile,
            flowMediaId: input.flowMediaId,
            kind: input.kind,
            status: input.status ?? 'ready',
            ...fields,
            metadataJson: JSON.stringify(input.metadata ?? {}),
            createdAt: input.createdAt ?? now,
            updatedAt: now,
          })
          .onConflictDoUpdate({
            target: [assets.profileName, assets.flowMediaId],
            set: {
              ...updates,
              ...(input.status === undefined ? {} : { status: input.status }),
              metadataJson: sql`json_patch(${assets.metadataJson}, excluded.metadata_json)`,
              updatedAt: now,
            },
          })
          .returning()
          .get();
      });
    },
    get(id) {
      return ctx.orm.select().from(assets).where(eq(assets.id, id)).get();
    },
    getByMediaId(profile, flowMediaId) {
      return ctx.orm
        .select()
        .from(assets)
        .where(and(eq(assets.profileName, profile), eq(assets.flowMediaId, flowMediaId)))
        .get();
    },
    mediaIdsOfProject(profile, flowProjectId) {
      return ctx.orm
        .select({ id: assets.flowMediaId })
        .from(assets)
        .where(and(eq(assets.profileName, profile), eq(assets.flowProjectId, flowProjectId)))
        .all()
        .map((row) => row.id);
    },
    link(operationId, assetId, role, position = 0) {
      ctx.write(() => linkStmt.run(operationId, assetId, role, position));
    },
  };
}
