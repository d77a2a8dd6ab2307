// What `gflow doctor --fix` repairs: only what is safe to do without asking — nothing the user made
// is deleted, nothing is sent anywhere. Everything else a finding names stays the user's to run.
import fs from 'node:fs';
import type { Catalog } from '@gflow/catalog';
import { checkHome } from './doctorChecks.js';

/** One repair and what came of it. */
export interface DoctorFix {
  /** The doctor check it answers (`catalog.local_files`, …). */
  readonly check: string;
  readonly outcome: 'fixed' | 'nothing_to_do' | 'failed';
  readonly detail: string;
  readonly count?: number;
}

/** The home tightened to 0700 when others can write to it (the `home` finding). */
export function fixHomeMode(home: string, platform: NodeJS.Platform = process.platform): DoctorFix {
  const before = checkHome(home, platform);
  if (before.severity !== 'warn') return { check: 'home', outcome: 'nothing_to_do', detail: before.detail };
  try {
    fs.chmodSync(home, 0o700);
    return { check: 'home', outcome: 'fixed', detail: `${home} is now mode 700.` };
  } catch (error) {
    return { check: 'home', outcome: 'failed', detail: `chmod 700 ${home}: ${message(error)}` };
  }
}

/**
 * Folds the write-ahead log into the catalog and truncates it (`wal_checkpoint(TRUNCATE)`). Safe
 * beside other processes: SQLite checkpoints only what no reader still needs and says when it
 * could not finish (another process holds the log), which is reported as failed with who to stop.
 */
export function checkpointWal(catalog: Catalog, dbPath: string): DoctorFix {
  const walBytes = sizeOf(`${dbPath}-wal`);
  if (walBytes === undefined || walBytes === 0)
    return { check: 'catalog.wal', outcome: 'nothing_to_do', detail: 'no write-ahead log to fold in' };
  try {
    const [row] = catalog.database.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
    if (row !== undefined && row.busy !== 0)
      return {
        check: 'catalog.wal',
        outcome: 'failed',
        detail:
          'Another process is using the catalog, so the log could not be folded in; stop gflow serve, gflow mcp run and background workers on this home, then run gflow doctor --fix again.',
      };
    return {
      check: 'catalog.wal',
      outcome: 'fixed',
      detail: `Folded ${Math.round(walBytes / 1024)} KiB of write-ahead log into the catalog (now ${Math.round((sizeOf(`${dbPath}-wal`) ?? 0) / 1024)} KiB).`,
    };
  } catch (error) {
    return { check: 'catalog.wal', outcome: 'failed', detail: `wal_checkpoint: ${message(error)}` };
  }
}

/** Drops the rows of catalogued local files that are gone (rows only, as `gflow data prune`). */
export function pruneMissingFileRows(catalog: Catalog): DoctorFix {
  const result = catalog.localFiles.pruneMissing();
  return result.removed.length === 0
    ? { check: 'catalog.local_files', outcome: 'nothing_to_do', detail: `${result.checked} catalogued files present` }
    : {
        check: 'catalog.local_files',
        outcome: 'fixed',
        detail: `Dropped the rows of ${result.removed.length} missing files (the assets stay; gflow data download fetches one again).`,
        count: result.removed.length,
      };
}

/**
 * Records the SHA-256 of local files that have none, when the file still has the size the catalog
 * recorded (a file of another size is not the one gflow wrote, and stays unhashed).
 */
export async function hashUnhashedFiles(catalog: Catalog): Promise<DoctorFix> {
  const result = await catalog.localFiles.hashMissing();
  if (result.hashed === 0 && result.skipped === 0)
    return { check: 'catalog.sha256_missing', outcome: 'nothing_to_do', detail: 'every local file has its SHA-256' };
  const skipped = result.skipped
    ? ` ${result.skipped} could not be (missing, or not the size recorded): gflow data download <media id> fetches them again.`
    : '';
  return {
    check: 'catalog.sha256_missing',
    outcome: result.skipped === 0 ? 'fixed' : 'failed',
    detail: `Recorded the SHA-256 of ${result.hashed} local files.${skipped}`,
    count: result.hashed,
  };
}

function sizeOf(file: string): number | undefined {
  try {
    return fs.statSync(file).size;
  } catch {
    return undefined;
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
