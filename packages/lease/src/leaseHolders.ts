import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type LeaseHolder, readHolderRecord } from './holderRecord.js';

/** At most this many holder records are read (a locks dir holds one per profile). */
const MAX_RECORDS = 64;

/**
 * The other live processes holding a profile lease under `locksDir`, from their diagnostic
 * records: who is at work on this machine right now. Diagnostic only (e.g. naming the likely
 * holder of a busy catalog); a record whose process is gone on this host is left out, and so is
 * this process.
 */
export function readLeaseHolders(locksDir: string): LeaseHolder[] {
  let names: string[];
  try {
    names = fs.readdirSync(locksDir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith('.holder.json'))
    .sort()
    .slice(0, MAX_RECORDS)
    .map((name) => readHolderRecord(path.join(locksDir, name)))
    .filter((holder): holder is LeaseHolder => holder !== undefined && holder.pid !== process.pid && isAlive(holder));
}

function isAlive(holder: LeaseHolder): boolean {
  if (holder.hostname !== os.hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
