import fs from 'node:fs';
import path from 'node:path';
import { createGflow } from '@gflow/core';
import type { SurfaceHome } from './drivers/environment.js';

type Catalog = ReturnType<typeof createGflow>['catalog'];

/** Opens the home's catalog through core, as every surface will, and hands it to `fn`. */
export async function withCatalog<T>(where: SurfaceHome, fn: (catalog: Catalog) => T): Promise<T> {
  const gflow = createGflow({ surface: 'library', env: { ...where.settings }, cwd: where.home });
  try {
    return fn((await gflow.ready()).catalog);
  } finally {
    await gflow.close();
  }
}

/** `count` catalogued projects of `profile` (ids `proj-1`…), one second apart so the newest-first order is fixed. */
export async function seedProjects(where: SurfaceHome, profile: string, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) => `proj-${i + 1}`);
  await withCatalog(where, (catalog) => {
    ids.forEach((id, i) => {
      catalog.projects.upsert({
        profile,
        flowProjectId: id,
        title: `Project ${i + 1}`,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      });
    });
  });
  return ids;
}

/** A catalogued video (with its project) that gflow_download_media can look up. */
export async function seedVideo(where: SurfaceHome, profile: string, mediaId: string, project: string): Promise<void> {
  await withCatalog(where, (catalog) => {
    catalog.projects.upsert({ profile, flowProjectId: project, title: 'Seeded' });
    catalog.assets.record({
      profile,
      flowMediaId: mediaId,
      kind: 'video',
      flowProjectId: project,
      model: 'veo_3_1_fast',
      durationSeconds: 8,
    });
  });
}

/**
 * Damages a migrated catalog the way a stray tool or a half-restored backup
 * can: the projects table is gone while the migration ledger still says it
 * exists. Reading projects then fails inside SQLite (a non-gflow error).
 */
export async function dropProjectsTable(where: SurfaceHome): Promise<void> {
  await withCatalog(where, (catalog) => catalog.database.exec('DROP TABLE projects'));
}

/** A profile directory without its .gflow_browser_strategy marker (a failed first login leaves one). */
export function addProfileWithoutMarker(where: SurfaceHome, name: string): void {
  fs.mkdirSync(path.join(where.home, `profile_${name}`), { recursive: true, mode: 0o700 });
}
