import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * The fleet's tables, as drizzle's pg dialect sees them (migrations/0001_fleet.sql creates them;
 * schemaParity.test.ts holds the two together). Schema `gflow`; pg-boss keeps its own.
 */
export const gflowSchema = pgSchema('gflow');

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** The queue's rows: single generations, runs and their steps (the catalog's generation_queue, fleet-wide). */
export const tasks = gflowSchema.table(
  'tasks',
  {
    taskId: text('task_id').primaryKey(),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    profileName: text('profile_name').notNull(),
    taskType: text('task_type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    schemaVersion: integer('schema_version').notNull(),
    status: text('status', {
      enum: ['pending', 'working', 'completed', 'cancelled', 'indeterminate', 'failed'],
    })
      .notNull()
      .default('pending'),
    result: jsonb('result'),
    error: jsonb('error').$type<Record<string, unknown>>(),
    flowMediaId: text('flow_media_id'),
    claimant: text('claimant'),
    claimedAt: at('claimed_at'),
    cancelRequestedAt: at('cancel_requested_at'),
    checkpoint: jsonb('checkpoint').$type<Record<string, unknown>>(),
    createdAt: at('created_at')
      .notNull()
      .default(sql`clock_timestamp()`),
    updatedAt: at('updated_at')
      .notNull()
      .default(sql`clock_timestamp()`),
    parentTaskId: text('parent_task_id'),
    stepIndex: integer('step_index'),
    idempotencyKey: text('idempotency_key'),
    pool: text('pool'),
    routeAttempt: integer('route_attempt').notNull().default(0),
    routing: jsonb('routing').$type<RoutingEntry[]>().notNull().default([]),
  },
  (t) => [
    index('tasks_by_status').on(t.status, t.createdAt, t.seq),
    index('tasks_by_profile_status').on(t.profileName, t.status, t.createdAt, t.seq),
    index('tasks_by_parent').on(t.parentTaskId, t.stepIndex, t.createdAt, t.seq),
    uniqueIndex('tasks_by_idempotency_key').on(t.profileName, t.idempotencyKey),
  ],
);

/** One profile that refused a pool's run before it moved on. */
export interface RoutingEntry {
  readonly profile: string;
  readonly reason: string;
  readonly at: string;
}

/** The workers of the fleet and when each was last heard from. */
export const workers = gflowSchema.table('workers', {
  workerId: text('worker_id').primaryKey(),
  host: text('host').notNull(),
  pid: integer('pid').notNull(),
  startedAt: at('started_at')
    .notNull()
    .default(sql`clock_timestamp()`),
  lastSeenAt: at('last_seen_at')
    .notNull()
    .default(sql`clock_timestamp()`),
  stoppedAt: at('stopped_at'),
});

/** What each worker holds: its profiles, their pools, and their credit facts as of its last heartbeat. */
export const fleetProfiles = gflowSchema.table(
  'fleet_profiles',
  {
    profileName: text('profile_name').notNull(),
    workerId: text('worker_id').notNull(),
    pools: text('pools')
      .array()
      .notNull()
      .default(sql`'{}'`),
    lastBalance: integer('last_balance'),
    balanceReadAt: at('balance_read_at'),
    creditsToday: integer('credits_today').notNull().default(0),
    dailyBudget: integer('daily_budget'),
    imageRefusedUntil: at('image_refused_until'),
    videoRefusedUntil: at('video_refused_until'),
    refusedReason: text('refused_reason'),
  },
  (t) => [primaryKey({ columns: [t.profileName, t.workerId] }), index('fleet_profiles_by_pool').using('gin', t.pools)],
);

/** The Flow projects the fleet's runs made or used, per profile. */
export const projects = gflowSchema.table(
  'projects',
  {
    profileName: text('profile_name').notNull(),
    flowProjectId: text('flow_project_id').notNull(),
    title: text('title'),
    createdAt: at('created_at')
      .notNull()
      .default(sql`clock_timestamp()`),
    lastUsedAt: at('last_used_at')
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [primaryKey({ columns: [t.profileName, t.flowProjectId] })],
);

/** The media the fleet's runs made, with their file's key in the shared output location. */
export const media = gflowSchema.table(
  'media',
  {
    profileName: text('profile_name').notNull(),
    flowMediaId: text('flow_media_id').notNull(),
    kind: text('kind', { enum: ['image', 'video'] }).notNull(),
    flowProjectId: text('flow_project_id'),
    taskId: text('task_id'),
    prompt: text('prompt'),
    model: text('model'),
    aspect: text('aspect'),
    fileKey: text('file_key'),
    bytes: bigint('bytes', { mode: 'number' }),
    sha256: text('sha256'),
    workerId: text('worker_id'),
    createdAt: at('created_at')
      .notNull()
      .default(sql`clock_timestamp()`),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.profileName, t.flowMediaId] }),
    index('media_by_time').on(t.createdAt.desc(), t.seq.desc()),
    index('media_by_media_id').on(t.flowMediaId),
    index('media_by_project').on(t.profileName, t.flowProjectId),
  ],
);

/** Which media a generation started from (frames, references). */
export const lineage = gflowSchema.table(
  'lineage',
  {
    profileName: text('profile_name').notNull(),
    flowMediaId: text('flow_media_id').notNull(),
    sourceMediaId: text('source_media_id').notNull(),
    role: text('role').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.profileName, t.flowMediaId, t.sourceMediaId, t.role] }),
    index('lineage_by_source').on(t.sourceMediaId),
  ],
);

export const fleetSchema = { tasks, workers, fleetProfiles, projects, media, lineage };
export type FleetSchema = typeof fleetSchema;
