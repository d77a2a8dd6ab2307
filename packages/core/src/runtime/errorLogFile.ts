import fs from 'node:fs';
import path from 'node:path';
import type { MaskedErrorEntry, MaskedErrorLog } from '@gflow/errors';
import type { HomeLayout } from '../home/homeLayout.js';

/** The file's name inside the home's logs folder. */
export const ERROR_LOG_NAME = 'errors.log';
/** Past this size the file is rotated (errors.log → errors.log.1 → errors.log.2, the oldest dropped). */
export const ERROR_LOG_MAX_BYTES = 1024 * 1024;
const KEEP = 2;

/**
 * The home's log of masked errors, `<home>/logs/errors.log`: one JSON line per error gflow did not
 * raise itself (time, the envelope's instance, pid, class, redacted message, stack and causes),
 * 0600 in a 0700 folder, rotated at 1 MiB keeping two old files. The masked sentence names it
 * relative to the configuration home (`logs/errors.log`, `sandbox/logs/errors.log`) so an envelope
 * carries no absolute path; the CLI prints the full path.
 */
export function errorLogFile(layout: Pick<HomeLayout, 'logsDir' | 'configHome'>): MaskedErrorLog {
  const file = path.join(layout.logsDir, ERROR_LOG_NAME);
  const relative = path.relative(layout.configHome, file);
  const name = relative.startsWith('..') || path.isAbsolute(relative) ? ERROR_LOG_NAME : relative;
  return {
    name: `${name.split(path.sep).join('/')} in the gflow home`,
    file,
    write: (entry) => appendEntry(file, entry),
  };
}

function appendEntry(file: string, entry: MaskedErrorEntry): boolean {
  const line = `${JSON.stringify(entry)}\n`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    rotateIfFull(file, Buffer.byteLength(line));
    fs.appendFileSync(file, line, { mode: 0o600 });
    return true;
  } catch {
    return false;
  }
}

function rotateIfFull(file: string, adding: number): void {
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch {
    return;
  }
  if (size + adding <= ERROR_LOG_MAX_BYTES) return;
  for (let n = KEEP; n >= 1; n -= 1) {
    try {
      fs.renameSync(n === 1 ? file : `${file}.${n - 1}`, `${file}.${n}`);
    } catch {
      // nothing to move at this step
    }
  }
}
