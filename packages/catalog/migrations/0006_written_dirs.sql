-- gflow catalog, schema version 6: where gflow wrote each local copy (issue 41).
-- The real directory a file was written into, recorded when gflow wrote it (-o FILE, --out DIR,
-- out_dir, or the output dir's layout). The gallery serves a catalogued file from the output dir,
-- or from the very directory gflow wrote it into (its real path, symlinks resolved at write time);
-- a file moved or swapped for a link elsewhere since is not served. NULL for copies recorded before.
ALTER TABLE local_files ADD COLUMN written_dir TEXT;
