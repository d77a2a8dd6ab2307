// The JSON contracts the command-output suites (commandOutputs/harness.ts) check the real binary against:
// the RFC 9457 problem document of a failure, and the documented payloads of
// the CLI-only commands (no core operation, so no operation output schema). Every command that
// runs an operation is checked against that operation's own output schema instead.
import { loadOperations } from '@gflow/core/surfaces';
import { ERROR_TYPE_BASE, codeOfProblemType, exitCodeForCode } from '@gflow/errors';
import { z } from 'zod';

// Every operation, loaded (the surfaces' registry loads them on demand).
const OPERATIONS = await loadOperations();

const isoTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/, 'an ISO 8601 timestamp');
const ok = z.literal('ok');

/** One RFC 9457 problem plus gflow's `retryable` and `message`; any other member is an extension. */
export const problemDocument = z
  .object({
    type: z
      .string()
      .refine(
        (t) => t === 'about:blank' || (t.startsWith(ERROR_TYPE_BASE) && codeOfProblemType(t) !== undefined),
        'a known gflow problem type',
      ),
    title: z.string().min(1),
    status: z.number().int().min(200).max(599),
    detail: z.string().min(1),
    instance: z.string().regex(/^gflow:error:[0-9a-f-]{8,}$/),
    remediation_hint: z.string().min(1),
    retryable: z.boolean(),
    message: z.string().min(1),
    incident: z.object({ id: z.string(), capture_status: z.string() }).optional(),
  })
  .loose();

/**
 * Every `--json` failure: `{status, error}` — `error`/`rate_limited` for a refusal, a job's own failed
 * status with its ids beside it — whose `error` is always one problem document.
 */
export const failureDocument = z
  .object({
    status: z.enum(['error', 'rate_limited', 'failed', 'cancelled', 'indeterminate', 'invalid_tools']),
    error: problemDocument,
  })
  .loose();

/** The exit code the error table gives the problem's type (what the CLI must exit with). */
export function exitCodeOfProblem(problem: { readonly type: string }): number {
  const code = codeOfProblemType(problem.type);
  if (!code) throw new Error(`not a gflow problem type: ${problem.type}`);
  return exitCodeForCode(code) || 1;
}

/** `data errors export -o FILE --json`: what was written where (the rows go to the file). */
export const errorsExportFilePayload = z.strictObject({
  status: ok,
  count: z.number().int().min(0),
  path: z.string().min(1),
  before: isoTime,
});

export const mcpSetupPayload = z.strictObject({
  status: z.enum(['configured', 'already_configured']),
  target: z.enum(['claude-desktop', 'cursor', 'vscode']),
  config_path: z.string().min(1),
  server_name: z.string().min(1),
  backup_path: z.string().min(1).nullable(),
  entry: z.record(z.string(), z.unknown()).nullable(),
  launch: z.enum(['path', 'absolute']),
  launch_reason: z.string().min(1),
});

/** `doctor --json`: the CLI's runtime check, then core's doctor operation's checks, and the verdict. */
export const doctorPayload = z.strictObject({
  overall_status: z.enum(['ok', 'issues']),
  /** With --fix: what was repaired before the checks ran (core's doctorFix). */
  fixes: (
    OPERATIONS.find((o) => o.name === 'doctorFix')!.output as unknown as { shape: { fixes: z.ZodType } }
  ).shape.fixes.optional(),
  checks: z
    .array(
      (OPERATIONS.find((o) => o.name === 'doctor')!.output as unknown as { shape: { checks: { element: z.ZodType } } })
        .shape.checks.element,
    )
    .min(1),
});

export const updatePayload = z.strictObject({
  status: z.enum(['up_to_date', 'update_available', 'offline', 'not_published', 'disabled', 'unknown']),
  installed: z.string().min(1),
  latest: z.string().min(1).nullable(),
  update_available: z.boolean(),
  installer: z.enum(['npm', 'source']),
  command: z.string(),
  upgraded: z.literal(false),
  notes: z.string(),
});

/** `worker --fleet URL --json`: the fleet worker's report once stopped (CLI-only, no core operation). */
export const fleetWorkerPayload = z.strictObject({
  status: z.literal('ok'),
  worker_id: z.string().min(1),
  profiles: z.array(z.string().min(1)),
  ran: z.array(z.string().min(1)),
});

/** `worker run --json`: why the worker left and the tasks it ran (CLI-only, no core operation). */
export const workerReportPayload = z.strictObject({
  status: z.literal('ok'),
  profile: z.string().min(1),
  reason: z.enum(['drained', 'another-worker', 'stopped']),
  ran: z.array(z.string().min(1)),
});

/** `gflow movie template --json`: the commented storyboard's text. */
export const movieTemplatePayload = z.object({ storyboard: z.string().min(1) }).strict();
