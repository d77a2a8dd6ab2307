import { and, desc, eq, sql } from 'drizzle-orm';
import type { FleetDb } from '../connection.js';
import { guarded } from '../queue/guarded.js';
import { lineage, media, projects } from '../schema/fleetTables.js';

/** One media a step made, as the fleet records it: its file by key in the shared output location. */
export interface SharedMediaItem {
  readonly mediaId: string;
  readonly kind: 'image' | 'video';
  readonly prompt: string | null;
  readonly model: string | null;
  readonly aspect: string | null;
  /** The file's key in the shared output location ('/'-separated, relative): what an object store would name it. */
  readonly fileKey: string | null;
  readonly bytes: number | null;
  readonly sha256: string | null;
}

/** What a worker publishes when a generation completes: where (profile, project), what, made from what. */
export interface SharedRecord {
  readonly profile: string;
  readonly taskId: string;
  readonly workerId: string;
  readonly projectId: string | null;
  readonly projectTitle: string | null;
  readonly items: readonly SharedMediaItem[];
  /** The catalogued media it started from (frames, references), by role. */
  readonly sources: readonly { readonly mediaId: string; readonly role: string }[];
}

/** A media row as the front door reads it. */
export interface SharedMedia extends SharedMediaItem {
  readonly profile: string;
  readonly projectId: string | null;
  readonly taskId: string | null;
  readonly workerId: string | null;
  readonly createdAt: string;
}

export interface SharedProject {
  readonly profile: string;
  readonly projectId: string;
  readonly title: string | null;
  readonly createdAt: string;
  readonly media: readonly SharedMedia[];
}

type MediaRow = typeof media.$inferSelect;

function toShared(row: MediaRow): SharedMedia {
  return {
    mediaId: row.flowMediaId,
    kind: row.kind,
    prompt: row.prompt,
    model: row.model,
    aspect: row.aspect,
    fileKey: row.fileKey,
    bytes: row.bytes,
    sha256: row.sha256,
    profile: row.profileName,
    projectId: row.flowProjectId,
    taskId: row.taskId,
    workerId: row.workerId,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The fleet's shared catalog (drizzle's pg dialect): the projects, media and lineage every
 * worker's completed generations publish, which the front door's gallery and MCP resources read.
 * Each worker keeps its own catalog (SQLite) for what only it needs — its operations and credit
 * ledger, its uploads, its usage — and publishes here what the fleet shares.
 */
export class SharedCatalog {
  readonly #db: FleetDb;

  constructor(db: FleetDb) {
    this.#db = db;
  }

  /** Records a completed generation (idempotent: a recovered step published twice stays one row). */
  publish(record: SharedRecord): Promise<void> {
    return guarded(() =>
      this.#db.transaction(async (tx) => {
        if (record.projectId !== null)
          await tx
            .insert(projects)
            .values({ profileName: record.profile, flowProjectId: record.projectId, title: record.projectTitle })
            .onConflictDoUpdate({
              target: [projects.profileName, projects.flowProjectId],
              set: { lastUsedAt: sql`clock_timestamp()`, title: sql`coalesce(${projects.title}, excluded.title)` },
            });
        for (const item of record.items) {
          const values = {
            profileName: record.profile,
            flowMediaId: item.mediaId,
            kind: item.kind,
            flowProjectId: record.projectId,
            taskId: record.taskId,
            prompt: item.prompt,
            model: item.model,
            aspect: item.aspect,
            fileKey: item.fileKey,
            bytes: item.bytes,
            sha256: item.sha256,
            workerId: record.workerId,
          };
          const { profileName: _p, flowMediaId: _m, ...update } = values;
          await tx
            .insert(media)
            .values(values)
            .onConflictDoUpdate({ target: [media.profileName, media.flowMediaId], set: update });
          for (const source of record.sources)
            await tx
              .insert(lineage)
              .values({
                profileName: record.profile,
                flowMediaId: item.mediaId,
                sourceMediaId: source.mediaId,
                role: source.role,
              })
              .onConflictDoNothing();
        }
      }),
    );
  }

  /** The newest media first (`kind` narrows), limit 1..200, with has_more from limit + 1. */
  recentMedia(options: { kind?: 'image' | 'video'; limit?: number; offset?: number } = {}): Promise<{
    items: SharedMedia[];
    hasMore: boolean;
  }> {
    const limit = Math.min(Math.max(options.limit ?? 20, 1), 200);
    return guarded(async () => {
      const rows = await this.#db
        .select()
        .from(media)
        .where(options.kind === undefined ? undefined : eq(media.kind, options.kind))
        .orderBy(desc(media.createdAt), desc(media.seq))
        .limit(limit + 1)
        .offset(Math.max(options.offset ?? 0, 0));
      return { items: rows.slice(0, limit).map(toShared), hasMore: rows.length > limit };
    });
  }

  /** A media by its Flow id (the newest row when two profiles hold the same id, which Flow never mints). */
  mediaById(mediaId: string): Promise<SharedMedia | undefined> {
    return guarded(async () => {
      const [row] = await this.#db
        .select()
        .from(media)
        .where(eq(media.flowMediaId, mediaId))
        .orderBy(desc(media.createdAt))
        .limit(1);
      return row === undefined ? undefined : toShared(row);
    });
  }

  /** A project and its media, newest first; undefined when the fleet has no such project. */
  project(projectId: string, profile?: string): Promise<SharedProject | undefined> {
    return guarded(async () => {
      const where =
        profile === undefined
          ? eq(projects.flowProjectId, projectId)
          : and(eq(projects.flowProjectId, projectId), eq(projects.profileName, profile));
      const [row] = await this.#db.select().from(projects).where(where).limit(1);
      if (row === undefined) return undefined;
      const items = await this.#db
        .select()
        .from(media)
        .where(and(eq(media.profileName, row.profileName), eq(media.flowProjectId, projectId)))
        .orderBy(desc(media.createdAt), desc(media.seq));
      return {
        profile: row.profileName,
        projectId: row.flowProjectId,
        title: row.title,
        createdAt: row.createdAt.toISOString(),
        media: items.map(toShared),
      };
    });
  }

  /** What a media was made from, and what was made from it. */
  lineageOf(mediaId: string): Promise<{ sources: { mediaId: string; role: string }[]; derived: string[] }> {
    return guarded(async () => {
      const sources = await this.#db
        .select({ mediaId: lineage.sourceMediaId, role: lineage.role })
        .from(lineage)
        .where(eq(lineage.flowMediaId, mediaId));
      const derived = await this.#db
        .select({ mediaId: lineage.flowMediaId })
        .from(lineage)
        .where(eq(lineage.sourceMediaId, mediaId));
      return { sources, derived: [...new Set(derived.map((d) => d.mediaId))] };
    });
  }
}
