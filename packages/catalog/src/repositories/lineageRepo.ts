import type { CatalogContext } from '../context.js';
import type { AssetKind, AssetRole } from './assetsRepo.js';

/** An asset an operation used or made, as the gallery links it. */
export interface LinkedAsset {
  readonly operationId: number;
  readonly role: AssetRole;
  readonly position: number;
  readonly mediaId: string;
  readonly kind: AssetKind;
  readonly profile: string;
  /** Local copies the catalog records for it (0: made, perhaps billed, never downloaded). */
  readonly fileCount: number;
}

/** An operation that used an asset as an input, and what it made. */
export interface DerivedOperation {
  readonly operationId: number;
  readonly command: string;
  readonly mode: string | null;
  readonly status: string;
  readonly role: AssetRole;
  readonly startedAt: string;
  readonly outputs: readonly LinkedAsset[];
}

/** Which operation made an asset, from what, and what was made from it (the gallery's media page). */
export interface LineageRepo {
  /** The newest operation that output the asset (its id), or undefined when none was recorded. */
  madeBy(assetId: number): number | undefined;
  /** Every asset linked to an operation: its inputs (`input`, `seed_start`, `seed_end`, `reference`) and its outputs. */
  assetsOf(operationId: number): LinkedAsset[];
  /** Operations that used the asset as an input (chains, i2v, references), newest first, each with its outputs. */
  derivedFrom(assetId: number, limit?: number): DerivedOperation[];
}

const LINKED = `SELECT oa.operation_id AS operationId, oa.role, oa.position, a.flow_media_id AS mediaId, a.kind,
  a.profile_name AS profile, (SELECT count(*) FROM local_files f WHERE f.asset_id = a.id) AS fileCount
  FROM operation_assets oa JOIN assets a ON a.id = oa.asset_id`;

export const LINEAGE_SQL = {
  madeBy: `SELECT operation_id AS id FROM operation_assets WHERE asset_id = ? AND role = 'output' ORDER BY operation_id DESC LIMIT 1`,
  assetsOf: `${LINKED} WHERE oa.operation_id = ? ORDER BY oa.role, oa.position`,
  usedBy: `SELECT o.id AS operationId, o.command, o.mode, o.status, oa.role, o.started_at AS startedAt
    FROM operation_assets oa JOIN operations o ON o.id = oa.operation_id
    WHERE oa.asset_id = ? AND oa.role != 'output' ORDER BY o.id DESC LIMIT ?`,
} as const;

export function createLineageRepo(ctx: CatalogContext): LineageRepo {
  const madeBy = ctx.db.prepare<[number], { id: number }>(LINEAGE_SQL.madeBy);
  const assetsOf = ctx.db.prepare<[number], LinkedAsset>(LINEAGE_SQL.assetsOf);
  const usedBy = ctx.db.prepare<[number, number], Omit<DerivedOperation, 'outputs'>>(LINEAGE_SQL.usedBy);
  return {
    madeBy: (assetId) => madeBy.get(assetId)?.id,
    assetsOf: (operationId) => assetsOf.all(operationId),
    derivedFrom: (assetId, limit = 50) =>
      usedBy.all(assetId, limit).map((row) => ({
        ...row,
        outputs: assetsOf.all(row.operationId).filter((linked) => linked.role === 'output'),
      })),
  };
}
