import type { Database } from 'better-sqlite3';
import { TASK_PAYLOAD_VERSION } from '../src/tasks/taskTypes.js';

export interface SeedSize {
  readonly projects: number;
  readonly assets: number;
  readonly operations: number;
  /** Pending tasks to claim. */
  readonly tasks: number;
  readonly profiles?: number;
}

export interface SeedInfo {
  readonly profiles: readonly string[];
  readonly projectIds: readonly string[];
  readonly mediaId: (i: number) => string;
  readonly taskId: (i: number) => string;
  readonly seconds: number;
}

const BASE = Date.parse('2025-01-01T00:00:00.000Z');

/**
 * Bulk-fills a migrated catalog in one transaction with prepared statements:
 * projects spread over profiles, assets (80 % images) spread over projects, one
 * operation per asset linked as its output, one local file per asset, and
 * pending tasks. Times increase with the row number so "newest first" is real.
 */
export function seedCatalog(db: Database, size: SeedSize): SeedInfo {
  const started = process.hrtime.bigint();
  const profileCount = size.profiles ?? 4;
  const profiles = Array.from({ length: profileCount }, (_, i) => `profile${i}`);
  const projectIds = Array.from({ length: size.projects }, (_, i) => `project-${i.toString(36).padStart(6, '0')}`);
  const mediaId = (i: number): string =>
    `media-${i.toString(16).padStart(8, '0')}-0000-4000-8000-${(i * 7919).toString(16).padStart(12, '0')}`;
  const taskId = (i: number): string => `task-${i.toString(36).padStart(8, '0')}`;
  const at = (ms: number): string => new Date(BASE + ms).toISOString();

  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -400000');
  const insertProfile = db.prepare(
    'INSERT OR IGNORE INTO profiles (name, first_seen_at, last_seen_at) VALUES (?, ?, ?)',
  );
  const insertProject = db.prepare(
    'INSERT INTO projects (id, profile_name, flow_project_id, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insertAsset = db.prepare(
    `INSERT INTO assets (id, profile_name, flow_project_id, flow_media_id, flow_workflow_id, kind, model, aspect_ratio,
       width, height, seed, display_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, '9:16', 768, 1376, ?, ?, ?, ?)`,
  );
  const insertOperation = db.prepare(
    `INSERT INTO operations (id, profile_name, flow_project_id, command, mode, status, prompt, prompt_hash, model,
       aspect_ratio, error_type, error_detail, started_at, completed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '9:16', ?, ?, ?, ?)`,
  );
  const insertLink = db.prepare(
    "INSERT INTO operation_assets (operation_id, asset_id, role, position) VALUES (?, ?, 'output', 0)",
  );
  const insertFile = db.prepare(
    'INSERT INTO local_files (id, profile_name, asset_id, path, media_type, bytes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const insertTask = db.prepare(
    `INSERT INTO generation_queue (task_id, profile_name, task_type, payload_json, schema_version, status, created_at, updated_at)
     VALUES (?, ?, 't2i', '{"schema_version":${TASK_PAYLOAD_VERSION},"prompt":"bench"}', ${TASK_PAYLOAD_VERSION}, 'pending', ?, ?)`,
  );

  db.transaction(() => {
    for (const p of profiles) insertProfile.run(p, at(0), at(0));
    projectIds.forEach((id, i) => {
      const t = at(i * 60_000);
      insertProject.run(i + 1, profiles[i % profileCount], id, `Project ${i}`, t, t);
    });
    const stepMs = Math.max(1, Math.floor((size.projects * 60_000) / Math.max(1, size.assets)));
    for (let i = 0; i < size.assets; i++) {
      const project = i % size.projects;
      const profile = profiles[project % profileCount];
      const t = at(i * stepMs + 1);
      const kind = i % 5 === 4 ? 'video' : 'image';
      insertAsset.run(
        i + 1,
        profile,
        projectIds[project],
        mediaId(i),
        `wf-${i}`,
        kind,
        kind === 'image' ? 'nano2' : 'veo-fast',
        i,
        `asset-${i}.png`,
        t,
        t,
      );
      if (i < size.operations) {
        const failed = i % 50 === 0;
        insertOperation.run(
          i + 1,
          profile,
          projectIds[project],
          kind === 'image' ? 'image t2i' : 'video t2v',
          kind === 'image' ? 't2i' : 't2v',
          failed ? 'failed' : 'succeeded',
          `prompt number ${i} about a cat`,
          null,
          kind === 'image' ? 'nano2' : 'veo-fast',
          failed ? 'content-policy' : null,
          failed ? 'blocked' : null,
          t,
          t,
        );
        insertLink.run(i + 1, i + 1);
      }
      insertFile.run(
        i + 1,
        profile,
        i + 1,
        `/data/out/${kind}s/${i}.${kind === 'image' ? 'png' : 'mp4'}`,
        kind === 'image' ? 'image/png' : 'video/mp4',
        100_000 + i,
        t,
      );
    }
    for (let i = size.assets; i < size.operations; i++) {
      const t = at(i);
      insertOperation.run(
        i + 1,
        profiles[i % profileCount],
        null,
        'image t2i',
        't2i',
        'failed',
        'p',
        null,
        'nano2',
        'network',
        'x',
        t,
        t,
      );
    }
    for (let i = 0; i < size.tasks; i++) insertTask.run(taskId(i), profiles[i % profileCount], at(i), at(i));
  }).immediate();
  db.exec('ANALYZE');
  db.pragma('synchronous = NORMAL');
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { profiles, projectIds, mediaId, taskId, seconds };
}
