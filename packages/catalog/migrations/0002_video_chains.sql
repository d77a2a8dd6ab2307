-- gflow catalog, schema version 2: video chains.
-- A chain (gflow video chain, gflow_generate_chain) is a story longer than one clip: link 0 is
-- text-to-video, each later link image-to-video from the last frame of the clip before. The row
-- keeps the plan and how far it got (per link: its task, clip, file, and the frame taken from it),
-- so --resume-from continues after a crash or a failed link without re-spending finished links.
CREATE TABLE video_chains (
  chain_id     TEXT PRIMARY KEY NOT NULL,
  profile_name TEXT NOT NULL REFERENCES profiles(name),
  status       TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'completed', 'failed')),
  spec_json    TEXT NOT NULL,
  state_json   TEXT NOT NULL,
  created_at   TEXT NOT NULL,
  updated_at   TEXT NOT NULL
);
CREATE INDEX video_chains_by_profile ON video_chains (profile_name, created_at);
