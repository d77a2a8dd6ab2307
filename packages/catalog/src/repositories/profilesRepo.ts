import { eq } from 'drizzle-orm';
import type { CatalogContext } from '../context.js';
import { profiles } from '../schema/index.js';
import { assertProfileName } from '../validation.js';

export type ProfileRow = typeof profiles.$inferSelect;

/** `data list profiles`: every profile with activity, from projects, assets and operations. */
export interface ProfileActivity {
  readonly name: string;
  readonly profileDir: string | null;
  readonly projectCount: number;
  readonly assetCount: number;
  readonly operationCount: number;
  readonly firstSeenAt: string;
  readonly lastSeenAt: string;
}

export interface ProfilesRepo {
  /** Creates the profile row on first use and bumps last_seen_at. */
  touch(name: string, profileDir?: string): ProfileRow;
  get(name: string): ProfileRow | undefined;
  list(): ProfileActivity[];
}

export function createProfilesRepo(ctx: CatalogContext): ProfilesRepo {
  const upsert = ctx.db.prepare(
    `INSERT INTO profiles (name, profile_dir, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET last_seen_at = excluded.last_seen_at,
       profile_dir = coalesce(excluded.profile_dir, profiles.profile_dir)
     RETURNING name, profile_dir AS profileDir, first_seen_at AS firstSeenAt, last_seen_at AS lastSeenAt`,
  );
  const activity = ctx.db.prepare(
    `SELECT p.name, p.profile_dir AS profileDir, p.first_seen_at AS firstSeenAt, p.last_seen_at AS lastSeenAt,
       (SELECT count(*) FROM projects x WHERE x.profile_name = p.name) AS projectCount,
       (SELECT count(*) FROM assets x WHERE x.profile_name = p.name) AS assetCount,
       (SELECT count(*) FROM operations x WHERE x.profile_name = p.name) AS operationCount
     FROM profiles p ORDER BY p.last_seen_at DESC, p.name`,
  );
  return {
    touch(name, profileDir) {
      assertProfileName(name);
      return ctx.write(() => upsert.get(name, profileDir ?? null, ctx.now(), ctx.now()) as ProfileRow);
    },
    get(name) {
      return ctx.orm.select().from(profiles).where(eq(profiles.name, name)).get();
    },
    list() {
      return activity.all() as ProfileActivity[];
    },
  };
}
