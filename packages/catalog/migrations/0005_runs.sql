-- gflow catalog, schema version 5: durable runs (issue 38).
-- A run of many paid steps (a batch, a chain; later an extend or a movie) is a row of the task
-- queue like a single generation, and each of its steps is a child row (a generation task of its
-- own) with its position. A step's state is written before its side effect, so a resumed,
-- restarted or retried run submits only the steps that never reached their submit click and
-- recovers the others by their recorded ids. An idempotency key makes a repeated call return the
-- earlier task or run instead of paying again.
ALTER TABLE generation_queue ADD COLUMN parent_task_id TEXT REFERENCES generation_queue(task_id);
ALTER TABLE generation_queue ADD COLUMN step_index INTEGER;
ALTER TABLE generation_queue ADD COLUMN idempotency_key TEXT;
CREATE INDEX generation_queue_by_parent ON generation_queue (parent_task_id, step_index, created_at);
CREATE UNIQUE INDEX generation_queue_by_idempotency_key ON generation_queue (profile_name, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
