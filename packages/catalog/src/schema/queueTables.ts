import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { profiles } from './catalogTables.js';

/** The generation task queue (see README "Tasks"). */
export const generationQueue = sqliteTable(
  'generation_queue',
  {
    taskId: text('task_id').primaryKey().notNull(),
    profileName: text('profile_name')
      .notNull()
      .references(() => profiles.name),
    taskType: text('task_type').notNull(),
    payloadJson: text('payload_json').notNull(),
    schemaVersion: integer('schema_version').notNull(),
    status: text('status', { enum: ['pending', 'working', 'completed', 'cancelled', 'indeterminate', 'failed'] })
      .notNull()
      .default('pending'),
    resultJson: text('result_json'),
    errorJson: text('error_json'),
    flowMediaId: text('flow_media_id'),
    claimant: text('claimant'),
    claimedAt: text('claimed_at'),
    cancelRequestedAt: text('cancel_requested_at'),
    checkpointJson: text('checkpoint_json'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
    /** The run this row is a step of (migration 0005); null for a single generation or a run. */
    parentTaskId: text('parent_task_id'),
    /** The step's position in its run; a step retried before its submit keeps its position in a new row. */
    stepIndex: integer('step_index'),
    /** A caller's key: a repeated call with it returns this row instead of paying again. */
    idempotencyKey: text('idempotency_key'),
  },
  (t) => [
    index('generation_queue_by_status').on(t.status, t.createdAt),
    index('generation_queue_by_profile_status').on(t.profileName, t.status, t.createdAt),
    index('generation_queue_by_parent').on(t.parentTaskId, t.stepIndex, t.createdAt),
    uniqueIndex('generation_queue_by_idempotency_key').on(t.profileName, t.idempotencyKey),
  ],
);

/** One row per command / tool invocation (gflow_usage_stats). */
export const usageEvents = sqliteTable(
  'usage_events',
  {
    id: integer('id').primaryKey(),
    surface: text('surface', { enum: ['cli', 'mcp', 'http', 'library'] }).notNull(),
    command: text('command').notNull(),
    profileName: text('profile_name'),
    outcome: text('outcome', { enum: ['ok', 'error'] })
      .notNull()
      .default('ok'),
    occurredAt: text('occurred_at').notNull(),
  },
  (t) => [index('usage_events_by_time').on(t.occurredAt)],
);

/** Video chains and how far each got (migrations/0002_video_chains.sql). */
export const videoChains = sqliteTable(
  'video_chains',
  {
    chainId: text('chain_id').primaryKey().notNull(),
    profileName: text('profile_name')
      .notNull()
      .references(() => profiles.name),
    status: text('status', { enum: ['running', 'completed', 'failed'] })
      .notNull()
      .default('running'),
    specJson: text('spec_json').notNull(),
    stateJson: text('state_json').notNull(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('video_chains_by_profile').on(t.profileName, t.createdAt)],
);

/** Local files uploaded into a Flow project, by content (migrations/0004_uploads.sql). */
export const uploads = sqliteTable(
  'uploads',
  {
    profileName: text('profile_name')
      .notNull()
      .references(() => profiles.name),
    flowProjectId: text('flow_project_id').notNull(),
    sha256: text('sha256').notNull(),
    bytes: integer('bytes').notNull(),
    flowMediaId: text('flow_media_id').notNull(),
    displayName: text('display_name').notNull(),
    sourcePath: text('source_path'),
    createdAt: text('created_at').notNull(),
    lastUsedAt: text('last_used_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.profileName, t.flowProjectId, t.sha256, t.bytes] }),
    index('uploads_by_media').on(t.profileName, t.flowMediaId),
  ],
);
