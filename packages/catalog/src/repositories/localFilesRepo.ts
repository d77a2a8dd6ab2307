import { existsSync, statSync } from 'node:fs';
import { BadParameterError, DataIntegrityError } from '@gflow/errors';
import type { CatalogContext } from '../context.js';
import { sha256File } from '../hashing.js';
import type { localFiles } from '../schema/index.js';
import { assertProfileName } from '../validation.js';

export type LocalFileRow = typeof localFiles.$inferSelect;

export interface RecordLocalFileInput {
  readonly assetId: number;
  /** Absolute local path, or the URI for a cloud copy. */
  readonly path: string;
  readonly bytes: number;
  /** Lowercase hex SHA-256 of the bytes. */
  readonly sha256?: string | null;
  readonly mediaType?: string | null;
  readonly storageProvider?: 'gcs' | 's3' | null;
  readonly cloudUri?: string | null;
  /** The real directory gflow wrote the file into, at write time (what the gallery may serve from). */
  readonly writtenDir?: string | null;
}

/** A local copy whose size (and SHA-256 when asked) matched the catalog just now. */
export interface VerifiedLocalFile {
  readonly file: LocalFileRow;
  readonly sha256Checked: boolean;
}

export interface PruneResult {
  readonly checked: number;
  readonly removed: ReadonlyArray<{ readonly id: number; readonly assetId: number; readonly path: string }>;
  readonly dryRun: boolean;
}

export interface LocalFilesRepo {
  /** Inserts or refreshes the copy (assetId, path): bytes, sha256, media type. */
  record(input: RecordLocalFileInput): LocalFileRow;
  listForAsset(assetId: number): LocalFileRow[];
  /**
   * The file is used only if it exists, is a regular file, its size equals the
   * recorded bytes and, with `checkSha256`, its hash equals the recorded one
   * (a row without a hash then fails). Cloud rows are never "verified local".
   */
  verify(file: LocalFileRow, options?: { readonly checkSha256?: boolean }): Promise<VerifiedLocalFile | null>;
  /** The newest verified local copy of an asset, or null. */
  firstVerified(assetId: number, options?: { readonly checkSha256?: boolean }): Promise<VerifiedLocalFile | null>;
  /** `data prune`: drops local rows whose path is gone (cloud rows are kept). */
  pruneMissing(options?: { readonly profile?: string; readonly dryRun?: boolean }): PruneResult;
  /**
   * `doctor --fix`: records the SHA-256 of local rows that have none, for files that exist with the
   * recorded size (others are skipped: missing, or not the file gflow wrote).
   */
  hashMissing(): Promise<{ readonly hashed: number; readonly skipped: number }>;
}

const SHA256 = /^[0-9a-f]{64}$/;

const FILE_COLUMNS = `id, profile_name AS profileName, asset_id AS assetId, path, media_type AS mediaType, bytes, sha256,
  storage_provider AS storageProvider, cloud_uri AS cloudUri, created_at AS createdAt, written_dir AS writtenDir`;

/** The copies of one asset, oldest first. */
export const LOCAL_FILES_BY_ASSET_SQL = `SELECT ${FILE_COLUMNS} FROM local_files WHERE asset_id = ? ORDER BY id`;

export function createLocalFilesRepo(ctx: CatalogContext): LocalFilesRepo {
  const upsert = ctx.db.prepare(
    `INSERT INTO local_files (profile_name, asset_id, path, media_type, bytes, sha256, storage_provider, cloud_uri, created_at, written_dir)
     SELECT a.profile_name, a.id, @path, @mediaType, @bytes, @sha256, @storageProvider, @cloudUri, @now, @writtenDir FROM assets a WHERE a.id = @assetId
     ON CONFLICT (asset_id, path) DO UPDATE SET bytes = excluded.bytes, sha256 = excluded.sha256,
       media_type = coalesce(excluded.media_type, local_files.media_type), created_at = excluded.created_at,
       written_dir = coalesce(excluded.written_dir, local_files.written_dir)
     RETURNING ${FILE_COLUMNS}`,
  );
  const localRows = ctx.db.prepare(
    'SELECT id, asset_id AS assetId, path FROM local_files WHERE storage_provider IS NULL',
  );
  const localRowsByProfile = ctx.db.prepare(
    'SELECT id, asset_id AS assetId, path FROM local_files WHERE storage_provider IS NULL AND profile_name = ?',
  );
  const deleteRow = ctx.db.prepare('DELETE FROM local_files WHERE id = ?');
  const unhashedRows = ctx.db.prepare(
    'SELECT id, path, bytes FROM local_files WHERE storage_provider IS NULL AND sha256 IS NULL ORDER BY id',
  );
  const setHash = ctx.db.prepare('UPDATE local_files SET sha256 = ? WHERE id = ? AND sha256 IS NULL');

  // Raw on purpose: media lookup runs this per candidate (the bench holds it to ≤ 1.5× raw).
  const byAsset = ctx.db.prepare(LOCAL_FILES_BY_ASSET_SQL);
  const listForAsset = (assetId: number): LocalFileRow[] => byAsset.all(assetId) as LocalFileRow[];

  const verify: LocalFilesRepo['verify'] = async (file, options = {}) => {
    if (file.storageProvider !== null) return null;
    try {
      const stat = statSync(file.path);
      if (!stat.isFile() || stat.size !== file.bytes) return null;
    } catch {
      return null;
    }
    if (options.checkSha256 !== true) return { file, sha256Checked: false };
    if (file.sha256 === null) return null;
    try {
      return (await sha256File(file.path)) === file.sha256 ? { file, sha256Checked: true } : null;
    } catch {
      return null;
    }
  };

  return {
    record(input) {
      if (!Number.isSafeInteger(input.bytes) || input.bytes < 0)
        throw new BadParameterError('bytes must be a non-negative integer.');
      const sha256 = input.sha256?.toLowerCase() ?? null;
      if (sha256 !== null && !SHA256.test(sha256)) throw new BadParameterError('sha256 must be 64 hex digits.');
      if (input.path.length === 0) throw new BadParameterError('path must not be empty.');
      const row = ctx.write(() =>
        upsert.get({
          assetId: input.assetId,
          path: input.path,
          mediaType: input.mediaType ?? null,
          bytes: input.bytes,
          sha256,
          storageProvider: input.storageProvider ?? null,
          cloudUri: input.cloudUri ?? null,
          writtenDir: input.writtenDir ?? null,
          now: ctx.now(),
        }),
      );
      if (row === undefined)
        throw new DataIntegrityError(`No asset with id ${input.assetId} to attach a local file to.`);
      return row as LocalFileRow;
    },
    listForAsset,
    verify,
    async firstVerified(assetId, options = {}) {
      const files = listForAsset(assetId).reverse();
      for (const file of files) {
        const verified = await verify(file, options);
        if (verified) return verified;
      }
      return null;
    },
    pruneMissing(options = {}) {
      const dryRun = options.dryRun === true;
      const rows = (
        options.profile === undefined ? localRows.all() : localRowsByProfile.all(assertProfileName(options.profile))
      ) as Array<{ id: number; assetId: number; path: string }>;
      const removed = rows.filter((row) => !existsSync(row.path));
      if (!dryRun && removed.length > 0) ctx.write(() => removed.forEach((row) => deleteRow.run(row.id)));
      return { checked: rows.length, removed, dryRun };
    },
    async hashMissing() {
      const rows = unhashedRows.all() as Array<{ id: number; path: string; bytes: number }>;
      let hashed = 0;
      for (const row of rows) {
        let hash: string;
        try {
          const stat = statSync(row.path);
          if (!stat.isFile() || stat.size !== row.bytes) continue;
          hash = await sha256File(row.path);
        } catch {
          continue;
        }
        ctx.write(() => setHash.run(hash, row.id));
        hashed += 1;
      }
      return { hashed, skipped: rows.length - hashed };
    },
  };
}
