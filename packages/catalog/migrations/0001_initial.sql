-- gflow catalog, schema version 1.
-- Times are ISO 8601 UTC text with milliseconds and Z (2026-01-02T03:04:05.678Z),
-- so text order is time order. Flow ids are text matching ^[\w-]{1,128}$.
-- This file is served verbatim as the gflow://db/schema MCP resource.

-- One row per gflow profile (a signed-in Chromium profile), created on first use.
CREATE TABLE profiles (
  name          TEXT PRIMARY KEY NOT NULL,
  profile_dir   TEXT,
  first_seen_at TEXT NOT NULL,
  last_seen_at  TEXT NOT NULL
);

-- Flow projects gflow generated into, created or renamed.
CREATE TABLE projects (
  id              INTEGER PRIMARY KEY,
  profile_name    TEXT NOT NULL REFERENCES profiles(name),
  flow_project_id TEXT NOT NULL,
  title           TEXT,
  source          TEXT NOT NULL DEFAULT 'gflow',
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL,
  UNIQUE (profile_name, flow_project_id)
);
-- project list, newest first, all profiles or one.
CREATE INDEX projects_by_created ON projects (created_at DESC, id DESC);
CREATE INDEX projects_by_profile_created ON projects (profile_name, created_at DESC, id DESC);

-- Media Flow made (or we uploaded): one row per (profile, flow media id).
-- display_name is NULL in redacted mode; display_name_hash is always kept.
CREATE TABLE assets (
  id                       INTEGER PRIMARY KEY,
  profile_name             TEXT NOT NULL REFERENCES profiles(name),
  flow_project_id          TEXT,
  flow_media_id            TEXT NOT NULL,
  flow_workflow_id         TEXT,
  flow_media_generation_id TEXT,
  kind                     TEXT NOT NULL CHECK (kind IN ('image', 'video')),
  status                   TEXT NOT NULL DEFAULT 'ready',
  model                    TEXT,
  aspect_ratio             TEXT,
  width                    INTEGER,
  height                   INTEGER,
  duration_seconds         REAL,
  seed                     INTEGER,
  display_name             TEXT,
  display_name_hash        TEXT,
  metadata_json            TEXT NOT NULL DEFAULT '{}',
  created_at               TEXT NOT NULL,
  updated_at               TEXT NOT NULL,
  UNIQUE (profile_name, flow_media_id)
);
-- media lookup across profiles.
CREATE INDEX assets_by_media ON assets (flow_media_id);
-- image / video pages, newest first, all profiles or one.
CREATE INDEX assets_by_kind_created ON assets (kind, created_at DESC, id DESC);
CREATE INDEX assets_by_profile_kind_created ON assets (profile_name, kind, created_at DESC, id DESC);
-- per-project image / video counts (covering).
CREATE INDEX assets_by_project_kind ON assets (profile_name, flow_project_id, kind);

-- Every run of a command against Flow, failures included.
-- prompt / expanded_prompt are NULL in redacted mode; prompt_hash is always kept.
CREATE TABLE operations (
  id                INTEGER PRIMARY KEY,
  profile_name      TEXT NOT NULL REFERENCES profiles(name),
  flow_project_id   TEXT,
  command           TEXT NOT NULL,
  mode              TEXT,
  status            TEXT NOT NULL DEFAULT 'started' CHECK (status IN ('started', 'succeeded', 'failed')),
  flow_operation_id TEXT,
  flow_batch_id     TEXT,
  task_id           TEXT,
  prompt            TEXT,
  prompt_hash       TEXT,
  prompt_redacted   INTEGER NOT NULL DEFAULT 0 CHECK (prompt_redacted IN (0, 1)),
  expanded_prompt   TEXT,
  model             TEXT,
  aspect_ratio      TEXT,
  error_type        TEXT,
  error_detail      TEXT CHECK (error_detail IS NULL OR length(error_detail) <= 500),
  started_at        TEXT NOT NULL,
  completed_at      TEXT,
  metadata_json     TEXT NOT NULL DEFAULT '{}'
);
-- usage stats by time window; doctor's "stuck in started".
CREATE INDEX operations_by_started ON operations (started_at);
CREATE INDEX operations_by_status_started ON operations (status, started_at);
-- error list, newest first, all profiles or one.
CREATE INDEX operations_failed_by_started ON operations (started_at DESC, id DESC) WHERE status = 'failed';
CREATE INDEX operations_failed_by_profile_started ON operations (profile_name, started_at DESC, id DESC) WHERE status = 'failed';

-- Which assets an operation consumed or produced.
CREATE TABLE operation_assets (
  operation_id INTEGER NOT NULL REFERENCES operations(id) ON DELETE CASCADE,
  asset_id     INTEGER NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  role         TEXT NOT NULL CHECK (role IN ('input', 'output', 'seed_start', 'seed_end', 'reference')),
  position     INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (operation_id, asset_id, role)
);
-- the prompt that made an asset (role = 'output').
CREATE INDEX operation_assets_by_asset ON operation_assets (asset_id, role, operation_id);

-- Copies of an asset on disk (or in a bucket: storage_provider + cloud_uri, path holds the URI).
CREATE TABLE local_files (
  id               INTEGER PRIMARY KEY,
  profile_name     TEXT NOT NULL REFERENCES profiles(name),
  asset_id         INTEGER NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  path             TEXT NOT NULL,
  media_type       TEXT,
  bytes            INTEGER NOT NULL CHECK (bytes >= 0),
  sha256           TEXT CHECK (sha256 IS NULL OR length(sha256) = 64),
  storage_provider TEXT CHECK (storage_provider IS NULL OR storage_provider IN ('gcs', 's3')),
  cloud_uri        TEXT,
  created_at       TEXT NOT NULL,
  UNIQUE (asset_id, path)
);
CREATE INDEX local_files_by_profile ON local_files (profile_name);

-- The generation task queue (MCP wait=false / wait=true, tasks/get, tasks/cancel).
-- pending -> working -> completed | cancelled | indeterminate | failed.
CREATE TABLE generation_queue (
  task_id         TEXT PRIMARY KEY NOT NULL,
  profile_name    TEXT NOT NULL REFERENCES profiles(name),
  task_type       TEXT NOT NULL,
  payload_json    TEXT NOT NULL,
  schema_version  INTEGER NOT NULL,
  status          TEXT NOT NULL DEFAULT 'pending'
                  CHECK (status IN ('pending', 'working', 'completed', 'cancelled', 'indeterminate', 'failed')),
  result_json     TEXT,
  error_json      TEXT,
  flow_media_id   TEXT,
  claimant        TEXT,
  claimed_at      TEXT,
  cancel_requested_at TEXT,
  checkpoint_json TEXT,
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL
);
-- next pending task of a profile; settle-at-startup scans status = 'working'.
CREATE INDEX generation_queue_by_status ON generation_queue (status, created_at);
CREATE INDEX generation_queue_by_profile_status ON generation_queue (profile_name, status, created_at);

-- One row per command / tool invocation on any surface (gflow_usage_stats).
CREATE TABLE usage_events (
  id           INTEGER PRIMARY KEY,
  surface      TEXT NOT NULL CHECK (surface IN ('cli', 'mcp', 'http', 'library')),
  command      TEXT NOT NULL,
  profile_name TEXT,
  outcome      TEXT NOT NULL DEFAULT 'ok' CHECK (outcome IN ('ok', 'error')),
  occurred_at  TEXT NOT NULL
);
CREATE INDEX usage_events_by_time ON usage_events (occurred_at);
