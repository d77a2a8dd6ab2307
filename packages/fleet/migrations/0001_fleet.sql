-- The fleet's shared tables (PostgreSQL, schema gflow): the task queue's rows (runs, their steps,
-- single generations), the workers and the profiles they hold, and the shared catalog (projects,
-- media, their files in the shared output location, lineage). pg-boss keeps its own schema
-- (gflow_boss) for dispatch. Times are timestamptz; every row names its profile.

CREATE TABLE gflow.tasks (
  task_id         text PRIMARY KEY,
  seq             bigserial NOT NULL,
  profile_name    text NOT NULL,
  task_type       text NOT NULL,
  payload         jsonb NOT NULL,
  schema_version  integer NOT NULL,
  status          text NOT NULL DEFAULT 'pending'
                  CHECK (status IN ('pending', 'working', 'completed', 'cancelled', 'indeterminate', 'failed')),
  result          jsonb,
  error           jsonb,
  flow_media_id   text,
  claimant        text,
  claimed_at      timestamptz,
  cancel_requested_at timestamptz,
  checkpoint      jsonb,
  created_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
  parent_task_id  text REFERENCES gflow.tasks (task_id),
  step_index      integer,
  idempotency_key text,
  -- A pool's run: the pool it was routed through, and every profile that refused it before.
  pool            text,
  route_attempt   integer NOT NULL DEFAULT 0,
  routing         jsonb NOT NULL DEFAULT '[]'::jsonb
);
CREATE INDEX tasks_by_status ON gflow.tasks (status, created_at, seq);
CREATE INDEX tasks_by_profile_status ON gflow.tasks (profile_name, status, created_at, seq);
CREATE INDEX tasks_by_parent ON gflow.tasks (parent_task_id, step_index, created_at, seq);
CREATE UNIQUE INDEX tasks_by_idempotency_key ON gflow.tasks (profile_name, idempotency_key);

CREATE TABLE gflow.workers (
  worker_id    text PRIMARY KEY,
  host         text NOT NULL,
  pid          integer NOT NULL,
  started_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
  last_seen_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  stopped_at   timestamptz
);

-- What a worker holds: one row per (profile, worker); a profile two workers hold (the same account
-- signed in on two machines) is served by whichever is free. The credit facts are the worker's
-- ledger (its catalog) as of its last heartbeat; a refusal holds the profile back for its kind.
CREATE TABLE gflow.fleet_profiles (
  profile_name        text NOT NULL,
  worker_id           text NOT NULL REFERENCES gflow.workers (worker_id) ON DELETE CASCADE,
  pools               text[] NOT NULL DEFAULT '{}',
  last_balance        integer,
  balance_read_at     timestamptz,
  credits_today       integer NOT NULL DEFAULT 0,
  daily_budget        integer,
  image_refused_until timestamptz,
  video_refused_until timestamptz,
  refused_reason      text,
  PRIMARY KEY (profile_name, worker_id)
);
CREATE INDEX fleet_profiles_by_pool ON gflow.fleet_profiles USING gin (pools);

CREATE TABLE gflow.projects (
  profile_name    text NOT NULL,
  flow_project_id text NOT NULL,
  title           text,
  created_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
  last_used_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (profile_name, flow_project_id)
);

-- A media Flow made, as the fleet knows it; `file_key` is its file's place in the shared output
-- location (relative, '/'-separated), the key an object store would use.
CREATE TABLE gflow.media (
  profile_name    text NOT NULL,
  flow_media_id   text NOT NULL,
  kind            text NOT NULL CHECK (kind IN ('image', 'video')),
  flow_project_id text,
  task_id         text,
  prompt          text,
  model           text,
  aspect          text,
  file_key        text,
  bytes           bigint,
  sha256          text,
  worker_id       text,
  created_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
  seq             bigserial NOT NULL,
  PRIMARY KEY (profile_name, flow_media_id)
);
CREATE INDEX media_by_time ON gflow.media (created_at DESC, seq DESC);
CREATE INDEX media_by_media_id ON gflow.media (flow_media_id);
CREATE INDEX media_by_project ON gflow.media (profile_name, flow_project_id);

-- Which media a generation started from (frames, references) and what it made.
CREATE TABLE gflow.lineage (
  profile_name    text NOT NULL,
  flow_media_id   text NOT NULL,
  source_media_id text NOT NULL,
  role            text NOT NULL,
  PRIMARY KEY (profile_name, flow_media_id, source_media_id, role)
);
CREATE INDEX lineage_by_source ON gflow.lineage (source_media_id);
