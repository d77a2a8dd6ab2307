-- gflow catalog, schema version 4: what gflow uploaded where.
-- A local file (its SHA-256 and size) uploaded into a Flow project becomes a library asset there
-- with a media id and a display name. Remembering it lets a later run mention the same file in
-- place — picked in the `@` picker or the Frames picker by that name — instead of uploading another
-- copy (seed 000 #772); a media id whose asset lives in the project is referenced the same way (#995).
CREATE TABLE uploads (
  profile_name    TEXT NOT NULL REFERENCES profiles(name),
  flow_project_id TEXT NOT NULL,
  sha256          TEXT NOT NULL,
  bytes           INTEGER NOT NULL,
  flow_media_id   TEXT NOT NULL,
  display_name    TEXT NOT NULL,
  source_path     TEXT,
  created_at      TEXT NOT NULL,
  last_used_at    TEXT NOT NULL,
  PRIMARY KEY (profile_name, flow_project_id, sha256, bytes)
);
CREATE INDEX uploads_by_media ON uploads (profile_name, flow_media_id);
