import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/**
 * drizzle mirror of migrations/0001_initial.sql, 0003_credit_ledger.sql and 0006_written_dirs.sql (the SQL files are the truth;
 * schemaParity.test.ts checks that every column here exists there and back).
 */
export const profiles = sqliteTable('profiles', {
  name: text('name').primaryKey().notNull(),
  profileDir: text('profile_dir'),
  firstSeenAt: text('first_seen_at').notNull(),
  lastSeenAt: text('last_seen_at').notNull(),
});

export const projects = sqliteTable(
  'projects',
  {
    id: integer('id').primaryKey(),
    profileName: text('profile_name')
      .notNull()
      .references(() => profiles.name),
    flowProjectId: text('flow_project_id').notNull(),
    title: text('title'),
    source: text('source').notNull().default('gflow'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('projects_profile_flow_id').on(t.profileName, t.flowProjectId),
    index('projects_by_created').on(sql`${t.createdAt} DESC`, sql`${t.id} DESC`),
    index('projects_by_profile_created').on(t.profileName, sql`${t.createdAt} DESC`, sql`${t.id} DESC`),
  ],
);

export const assets = sqliteTable(
  'assets',
  {
    id: integer('id').primaryKey(),
    profileName: text('profile_name')
      .notNull()
      .references(() => profiles.name),
    flowProjectId: text('flow_project_id'),
    flowMediaId: text('flow_media_id').notNull(),
    flowWorkflowId: text('flow_workflow_id'),
    flowMediaGenerationId: text('flow_media_generation_id'),
    kind: text('kind', { enum: ['image', 'video'] }).notNull(),
    status: text('status').notNull().default('ready'),
    model: text('model'),
    aspectRatio: text('aspect_ratio'),
    width: integer('width'),
    height: integer('height'),
    durationSeconds: real('duration_seconds'),
    seed: integer('seed'),
    displayName: text('display_name'),
    displayNameHash: text('display_name_hash'),
    metadataJson: text('metadata_json').notNull().default('{}'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('assets_profile_media').on(t.profileName, t.flowMediaId),
    index('assets_by_media').on(t.flowMediaId),
    index('assets_by_kind_created').on(t.kind, sql`${t.createdAt} DESC`, sql`${t.id} DESC`),
    index('assets_by_profile_kind_created').on(t.profileName, t.kind, sql`${t.createdAt} DESC`, sql`${t.id} DESC`),
    index('assets_by_project_kind').on(t.profileName, t.flowProjectId, t.kind),
  ],
);

export const operations = sqliteTable(
  'operations',
  {
    id: integer('id').primaryKey(),
    profileName: text('profile_name')
      .notNull()
      .references(() => profiles.name),
    flowProjectId: text('flow_project_id'),
    command: text('command').notNull(),
    mode: text('mode'),
    status: text('status', { enum: ['started', 'succeeded', 'failed'] })
      .notNull()
      .default('started'),
    flowOperationId: text('flow_operation_id'),
    flowBatchId: text('flow_batch_id'),
    taskId: text('task_id'),
    prompt: text('prompt'),
    promptHash: text('prompt_hash'),
    promptRedacted: integer('prompt_redacted', { mode: 'boolean' }).notNull().default(false),
    expandedPrompt: text('expanded_prompt'),
    model: text('model'),
    aspectRatio: text('aspect_ratio'),
    errorType: text('error_type'),
    errorDetail: text('error_detail'),
    startedAt: text('started_at').notNull(),
    completedAt: text('completed_at'),
    metadataJson: text('metadata_json').notNull().default('{}'),
    // migrations/0003_credit_ledger.sql
    surface: text('surface', { enum: ['cli', 'mcp', 'http', 'library'] }),
    creditsQuoted: integer('credits_quoted'),
    creditsSpent: integer('credits_spent'),
    creditDay: text('credit_day'),
    creditState: text('credit_state', { enum: ['reserved', 'released', 'estimated'] }),
  },
  (t) => [
    index('operations_by_started').on(t.startedAt),
    index('operations_by_status_started').on(t.status, t.startedAt),
    index('operations_failed_by_started')
      .on(sql`${t.startedAt} DESC`, sql`${t.id} DESC`)
      .where(sql`status = 'failed'`),
    index('operations_failed_by_profile_started')
      .on(t.profileName, sql`${t.startedAt} DESC`, sql`${t.id} DESC`)
      .where(sql`status = 'failed'`),
    index('operations_credits_by_profile_day')
      .on(t.profileName, t.creditDay)
      .where(sql`credit_day IS NOT NULL`),
    index('operations_credits_by_day')
      .on(t.creditDay)
      .where(sql`credit_day IS NOT NULL`),
  ],
);

export const operationAssets = sqliteTable(
  'operation_assets',
  {
    operationId: integer('operation_id')
      .notNull()
      .references(() => operations.id, { onDelete: 'cascade' }),
    assetId: integer('asset_id')
      .notNull()
      .references(() => assets.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['input', 'output', 'seed_start', 'seed_end', 'reference'] }).notNull(),
    position: integer('position').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.operationId, t.assetId, t.role] }),
    index('operation_assets_by_asset').on(t.assetId, t.role, t.operationId),
  ],
);

export const localFiles = sqliteTable(
  'local_files',
  {
    id: integer('id').primaryKey(),
    profileName: text('profile_name')
      .notNull()
      .references(() => profiles.name),
    assetId: integer('asset_id')
      .notNull()
      .references(() => assets.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    mediaType: text('media_type'),
    bytes: integer('bytes').notNull(),
    sha256: text('sha256'),
    storageProvider: text('storage_provider', { enum: ['gcs', 's3'] }),
    cloudUri: text('cloud_uri'),
    createdAt: text('created_at').notNull(),
    // migrations/0006_written_dirs.sql
    writtenDir: text('written_dir'),
  },
  (t) => [
    uniqueIndex('local_files_asset_path').on(t.assetId, t.path),
    index('local_files_by_profile').on(t.profileName),
  ],
);
