// What `gflow doctor --live` remembers per profile, in the profile's directory beside its markers:
// the scratch project it checks in (created once, reused) and the last check (when, what came of
// it). `gflow doctor` reads it, and a paid run reminds when it is older than a day.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** The file, in `profile_<name>/` (deleted with the profile). */
export const FLOW_CHECK_FILE = '.gflow_flow_check.json';

/** A record bigger than this is not gflow's: it is ignored (bounded parsing). */
const MAX_BYTES = 16 * 1024;

/**
 * The title of the profile's scratch project: where `doctor --live` checks and where a dry run
 * without a project reads its quote, so neither leaves a new empty project behind each time.
 */
export const SCRATCH_PROJECT_TITLE = 'gflow canary (scratch, safe to delete)';

/** The profile's scratch project, remembered (the first dry run or live check that made it). */
export function rememberScratchProject(profileDir: string, projectId: string): void {
  const current = readFlowCheckRecord(profileDir);
  if (current.scratch_project_id === projectId) return;
  writeFlowCheckRecord(profileDir, { ...current, scratch_project_id: projectId });
}

/** How old the last check may be before a paid run reminds of it. */
export const FLOW_CHECK_STALE_MS = 86_400_000;

const lastCheck = z.strictObject({
  at: z.iso.datetime(),
  status: z.enum(['ok', 'drifted']),
  ok: z.number().int().nonnegative(),
  drifted: z.number().int().nonnegative(),
  not_offered: z.number().int().nonnegative(),
  /** The ids that drifted (at most 20), so the doctor can name them. */
  drifted_ids: z.array(z.string().max(80)).max(20),
});

const record = z.strictObject({
  version: z.literal(1),
  /** The Flow project the checks run in (a UUID); null until the first check made it. */
  scratch_project_id: z
    .string()
    .regex(/^[0-9a-f-]{36}$/i)
    .nullable(),
  last_check: lastCheck.nullable(),
});

export type FlowCheckRecord = z.output<typeof record>;
export type LastFlowCheck = z.output<typeof lastCheck>;

const EMPTY: FlowCheckRecord = { version: 1, scratch_project_id: null, last_check: null };

/** The profile's record; an absent, oversized or unreadable one is the empty record (it is rewritten on the next check). */
export function readFlowCheckRecord(profileDir: string): FlowCheckRecord {
  const file = path.join(profileDir, FLOW_CHECK_FILE);
  try {
    if (fs.statSync(file).size > MAX_BYTES) return EMPTY;
    const parsed = record.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : EMPTY;
  } catch {
    return EMPTY;
  }
}

/** Writes the record (0600, through a temp file and a rename, so a crash leaves the old one). */
export function writeFlowCheckRecord(profileDir: string, value: FlowCheckRecord): void {
  const file = path.join(profileDir, FLOW_CHECK_FILE);
  const temp = `${file}.${process.pid}.part`;
  fs.writeFileSync(temp, `${JSON.stringify(record.parse(value), null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temp, file);
}

/** Whether the last check is missing or older than a day at `now`. */
export function flowCheckIsStale(last: LastFlowCheck | null, now: number = Date.now()): boolean {
  return last === null || now - Date.parse(last.at) > FLOW_CHECK_STALE_MS;
}

function age(at: string, now: number): string {
  const hours = Math.floor((now - Date.parse(at)) / 3_600_000);
  if (hours < 1) return 'less than an hour ago';
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

/** One line on the last check, for a reminder or a doctor finding. */
export function describeLastCheck(profile: string, last: LastFlowCheck | null, now: number = Date.now()): string {
  if (last === null)
    return `Flow has never been checked on profile ${profile}: gflow doctor --live walks every control a run needs for free.`;
  const what =
    last.status === 'ok'
      ? `all ok (${last.ok} ok, ${last.not_offered} not offered)`
      : `${last.drifted} drifted (${last.drifted_ids.slice(0, 3).join(', ')}${last.drifted_ids.length > 3 ? ', …' : ''})`;
  return `Flow was last checked on profile ${profile} ${age(last.at, now)}: ${what}; gflow doctor --live checks again for free.`;
}
