// The rows and payloads of the catalog operations (catalogParams.ts and its families, profileOperations.ts): the
// one contract the CLI prints, a library user receives and the command tests validate against.
import { z } from 'zod';

const isoTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/, 'an ISO 8601 timestamp');
const nullableNumber = z.number().nullable();
const nullableString = z.string().nullable();
const count = z.number().int().min(0);

/** One page of a local listing: its rows, and where the next page starts. */
export function pageOf<T extends z.ZodType>(row: T) {
  return z.strictObject({
    status: z.literal('ok'),
    items: z.array(row),
    count,
    offset: count,
    has_more: z.boolean(),
    next_offset: count.nullable(),
  });
}

/** What every view of a catalogued project shows. */
const projectFields = {
  project_id: z.string().min(1),
  title: nullableString,
  profile: z.string().min(1),
  source: nullableString,
  created_at: isoTime,
  url: z.string().regex(/^https:\/\/flow\.google\.com\/project\/[\w-]+$/),
};

/** A catalogued project, as `project list`, `data list projects` and gflow_list_projects show it. */
export const projectRow = z.strictObject({ ...projectFields, image_count: count, video_count: count });

/** The fields a media row and a shown asset share. */
const mediaFields = {
  media_id: z.string().min(1),
  kind: z.enum(['image', 'video']),
  profile: z.string().min(1),
  project_id: nullableString,
  workflow_id: nullableString,
  status: z.string(),
  model: nullableString,
  aspect_ratio: nullableString,
  width: nullableNumber,
  height: nullableNumber,
  duration_seconds: nullableNumber,
  seed: nullableNumber,
  display_name: nullableString,
  prompt: nullableString,
  created_at: isoTime,
};

/** One catalogued image or video of a listing (its newest local copy). */
export const mediaRow = z.strictObject({
  ...mediaFields,
  file_count: count,
  path: nullableString,
  bytes: nullableNumber,
});

/** One asset with every local copy, and whether each file still exists. */
export const shownMedia = z.strictObject({
  ...mediaFields,
  files: z.array(
    z.strictObject({ path: z.string().min(1), bytes: nullableNumber, sha256: nullableString, exists: z.boolean() }),
  ),
});

/** One profile the catalog has seen, with its activity. */
export const profileActivityRow = z.strictObject({
  name: z.string().min(1),
  profile_dir: nullableString,
  project_count: count,
  asset_count: count,
  operation_count: count,
  first_seen_at: isoTime,
  last_seen_at: isoTime,
});

/** One failed operation. */
export const errorRow = z.strictObject({
  operation_id: z.union([z.string().min(1), z.number().int()]),
  profile: z.string().min(1),
  command: z.string().min(1),
  mode: nullableString,
  project_id: nullableString,
  model: nullableString,
  error_type: nullableString,
  error_detail: nullableString,
  started_at: isoTime,
  completed_at: isoTime.nullable(),
});

/** One catalogued project, as `project show` prints it. */
export const shownProject = z.strictObject({ ...projectFields, updated_at: isoTime.nullable() });

export const prunedFiles = z.strictObject({
  status: z.literal('ok'),
  dry_run: z.boolean(),
  checked: count,
  removed: z.array(z.strictObject({ id: z.number().int(), asset_id: z.number().int(), path: z.string().min(1) })),
});

export const exportedErrors = z.strictObject({ status: z.literal('ok'), before: isoTime, items: z.array(errorRow) });
export const prunedErrors = z.strictObject({ status: z.literal('ok'), count, dry_run: z.boolean(), before: isoTime });

/** One profile directory of the home. */
export const profileRow = z.strictObject({
  name: z.string().min(1),
  google_account: nullableString,
  is_default: z.boolean(),
  cookies_present: z.boolean(),
  last_used_at: isoTime.nullable(),
  profile_dir: z.string().min(1),
});

/** One repair of `doctor --fix`. */
export const doctorFix = z.strictObject({
  check: z.string().min(1),
  outcome: z.enum(['fixed', 'nothing_to_do', 'failed']),
  detail: z.string(),
  count: count.optional(),
});

export const doctorCheck = z.strictObject({
  check: z.string().min(1),
  severity: z.enum(['ok', 'info', 'warn', 'fail']),
  detail: z.string(),
  /** The one command (or step) that fixes the finding. */
  remediation: z.string().min(1).optional(),
  /** The rows or profiles it concerns (capped), and how many there are. */
  ids: z.array(z.string()).optional(),
  count: count.optional(),
});
