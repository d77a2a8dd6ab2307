import type { CatalogContext } from '../context.js';
import type { ProfilesRepo } from './profilesRepo.js';
import { assertProfileName } from '../validation.js';

/** A local file gflow uploaded into a Flow project (by content), and what it became there. */
export interface UploadRecord {
  readonly profile: string;
  readonly projectId: string;
  readonly sha256: string;
  readonly bytes: number;
  readonly mediaId: string;
  readonly displayName: string;
  readonly sourcePath: string | null;
  readonly createdAt: string;
  readonly lastUsedAt: string;
}

export interface UploadsRepo {
  /** Remembers an upload (a second upload of the same content in the project replaces the first). */
  record(input: {
    profile: string;
    projectId: string;
    sha256: string;
    bytes: number;
    mediaId: string;
    displayName: string;
    sourcePath?: string | null;
  }): UploadRecord;
  /** The upload of this content in this project, if gflow made one. */
  find(profile: string, projectId: string, content: { sha256: string; bytes: number }): UploadRecord | undefined;
  /** Marks it used again (a run mentioned it in place). */
  touch(profile: string, projectId: string, content: { sha256: string; bytes: number }): void;
  /** Forgets it (Flow no longer lists it: the next run uploads again). */
  forget(profile: string, projectId: string, content: { sha256: string; bytes: number }): void;
  /** The upload a media id came from, if it was one of gflow's. */
  byMediaId(profile: string, mediaId: string): UploadRecord | undefined;
}

const COLUMNS = `profile_name AS profile, flow_project_id AS projectId, sha256, bytes, flow_media_id AS mediaId,
  display_name AS displayName, source_path AS sourcePath, created_at AS createdAt, last_used_at AS lastUsedAt`;

export function createUploadsRepo(ctx: CatalogContext, profiles: ProfilesRepo): UploadsRepo {
  const upsert = ctx.db.prepare(
    `INSERT INTO uploads (profile_name, flow_project_id, sha256, bytes, flow_media_id, display_name, source_path, created_at, last_used_at)
     VALUES (@profile, @projectId, @sha256, @bytes, @mediaId, @displayName, @sourcePath, @now, @now)
     ON CONFLICT (profile_name, flow_project_id, sha256, bytes) DO UPDATE SET flow_media_id = excluded.flow_media_id,
       display_name = excluded.display_name, source_path = excluded.source_path, created_at = excluded.created_at,
       last_used_at = excluded.last_used_at
     RETURNING ${COLUMNS}`,
  );
  const find = ctx.db.prepare(
    `SELECT ${COLUMNS} FROM uploads WHERE profile_name = ? AND flow_project_id = ? AND sha256 = ? AND bytes = ?`,
  );
  const touch = ctx.db.prepare(
    'UPDATE uploads SET last_used_at = ? WHERE profile_name = ? AND flow_project_id = ? AND sha256 = ? AND bytes = ?',
  );
  const forget = ctx.db.prepare(
    'DELETE FROM uploads WHERE profile_name = ? AND flow_project_id = ? AND sha256 = ? AND bytes = ?',
  );
  const byMedia = ctx.db.prepare(
    `SELECT ${COLUMNS} FROM uploads WHERE profile_name = ? AND flow_media_id = ? ORDER BY created_at DESC LIMIT 1`,
  );
  return {
    record(input) {
      assertProfileName(input.profile);
      profiles.touch(input.profile);
      return upsert.get({ ...input, sourcePath: input.sourcePath ?? null, now: ctx.now() }) as UploadRecord;
    },
    find(profile, projectId, content) {
      return find.get(profile, projectId, content.sha256, content.bytes) as UploadRecord | undefined;
    },
    touch(profile, projectId, content) {
      touch.run(ctx.now(), profile, projectId, content.sha256, content.bytes);
    },
    forget(profile, projectId, content) {
      forget.run(profile, projectId, content.sha256, content.bytes);
    },
    byMediaId(profile, mediaId) {
      return byMedia.get(profile, mediaId) as UploadRecord | undefined;
    },
  };
}
