// The JSON contracts the command-output suites (commandOutputs/harness.ts) check the real binary against:
// the RFC 9457 problem document of a failure, and the documented payloads of
// the CLI-only commands (no core operation, so no operation output schema).
import { ERROR_TYPE_BASE, codeOfProblemType, exitCodeForCode } from '@gflow/errors';
import { z } from 'zod';

const isoTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/, 'an ISO 8601 timestamp');
const ok = z.literal('ok');

/** One RFC 9457 problem plus gflow's `retryable` and `message`; any other member is an extension. */
export const problemDocument = z
  .object({
    type: z.string().refine((t) => t === 'about:blank' || (t.startsWith(ERROR_TYPE_BASE) && codeOfProblemType(t) !== undefined), 'a known gflow problem type'),
    title: z.string().min(1),
    status: z.number().int().min(400).max(599).optional(),
    detail: z.string().min(1),
    instance: z.string().regex(/^gflow:error:[0-9a-f-]{8,}$/),
    remediation_hint: z.string().min(1).optional(),
    retryable: z.boolean(),
    message: z.string().min(1),
    incident: z.object({ id: z.string(), capture_status: z.string() }).optional(),
  })
  .loose();

/** The exit code the error table gives the problem's type (what the CLI must exit with). */
export function exitCodeOfProblem(problem: { readonly type: string }): number {
  const code = codeOfProblemType(problem.type);
  if (!code) throw new Error(`not a gflow problem type: ${problem.type}`);
  return exitCodeForCode(code) || 1;
}

/** `auth list --json`: one row per profile. */
export const authListPayload = z.array(
  z.strictObject({
    name: z.string().min(1),
    google_account: z.string().nullable(),
    is_default: z.boolean(),
    cookies_present: z.boolean(),
    last_used_at: isoTime.nullable(),
    profile_dir: z.string().min(1),
  }),
);

export const authUsePayload = z.strictObject({ status: ok, default_profile: z.string().min(1), config_path: z.string().min(1) });
export const authLogoutPayload = z.strictObject({ status: ok, profile: z.string().min(1), deleted: z.string().min(1) });

/** `project show`: one catalogued project, in the snake_case of `project list`'s rows. */
export const projectShowPayload = z.strictObject({
  status: ok,
  project: z.strictObject({
    project_id: z.string().min(1),
    title: z.string().nullable(),
    profile: z.string().min(1),
    source: z.string().nullable(),
    created_at: isoTime,
    updated_at: isoTime.nullable(),
    url: z.string().regex(/^https:\/\/flow\.google\.com\/project\/[\w-]+$/),
  }),
});

const nullableNumber = z.number().nullable();
const nullableString = z.string().nullable();

export const dataProjectRow = z.strictObject({
  project_id: z.string().min(1),
  title: nullableString,
  profile: z.string().min(1),
  source: nullableString,
  created_at: isoTime,
  image_count: z.number().int().min(0),
  video_count: z.number().int().min(0),
});

/** The fields `data list images|videos` rows and `data media` share. */
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

export const dataMediaRow = z.strictObject({
  ...mediaFields,
  file_count: z.number().int().min(0),
  path: nullableString,
  bytes: nullableNumber,
});

export const dataProfileRow = z.strictObject({
  name: z.string().min(1),
  profile_dir: nullableString,
  project_count: z.number().int().min(0),
  asset_count: z.number().int().min(0),
  operation_count: z.number().int().min(0),
  first_seen_at: isoTime,
  last_seen_at: isoTime,
});

/** `data list errors` and `data errors export` rows. */
export const dataErrorRow = z.strictObject({
  operation_id: z.union([z.string().min(1), z.number().int()]),
  profile: z.string().min(1),
  command: z.string().min(1),
  mode: nullableString,
  project_id: nullableString,
  model: nullableString,
  error_type: z.string().min(1),
  error_detail: nullableString,
  started_at: isoTime,
  completed_at: isoTime.nullable(),
});

export const dataMediaPayload = z.strictObject({
  ...mediaFields,
  files: z.array(z.strictObject({ path: z.string().min(1), bytes: nullableNumber, sha256: nullableString, exists: z.boolean() })),
});

export const dataPrunePayload = z.strictObject({
  status: ok,
  dry_run: z.boolean(),
  checked: z.number().int().min(0),
  removed: z.array(z.strictObject({ id: z.number().int(), asset_id: z.number().int(), path: z.string().min(1) })),
});

export const errorsExportFilePayload = z.strictObject({ status: ok, count: z.number().int().min(0), path: z.string().min(1), before: isoTime });
export const errorsPrunePayload = z.strictObject({ status: ok, count: z.number().int().min(0), dry_run: z.boolean(), before: isoTime });

export const mcpSetupPayload = z.strictObject({
  status: z.enum(['configured', 'already_configured']),
  target: z.enum(['claude-desktop', 'cursor', 'vscode']),
  config_path: z.string().min(1),
  server_name: z.string().min(1),
  backup_path: z.string().min(1).nullable(),
});

export const doctorPayload = z.strictObject({
  overall_status: z.enum(['ok', 'issues']),
  checks: z.array(z.strictObject({ check: z.string().min(1), severity: z.enum(['ok', 'info', 'warn', 'fail']), detail: z.string() })).min(1),
});

export const updatePayload = z.strictObject({
  status: z.enum(['up_to_date', 'update_available', 'offline', 'disabled', 'unknown']),
  installed: z.string().min(1),
  latest: z.string().min(1).nullable(),
  update_available: z.boolean(),
  installer: z.enum(['npm', 'source']),
  command: z.string(),
  upgraded: z.literal(false),
  notes: z.string(),
});

export const telemetryPayload = z.strictObject({ status: ok, recording: z.enum(['on', 'off']), upload: z.literal(false), config_path: z.string().min(1) });
