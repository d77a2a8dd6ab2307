import path from 'node:path';
import type { FlowCheckReport } from '@gflow/driver';
import { exitCodeForCode } from '@gflow/errors';
import { z } from 'zod';
import { captureDocuments, writeCaptureBundle } from '../health/captureBundle.js';
import {
  type FlowCheckRecord,
  SCRATCH_PROJECT_TITLE,
  readFlowCheckRecord,
  writeFlowCheckRecord,
} from '../health/flowCheckRecord.js';
import { type ResolvedProfile, resolveProfile } from '../home/profiles.js';
import { confineToOutputDir, ensureWritableDirectory } from '../output/confine.js';
import { SURFACE_POLICY } from '../runtime/surfacePolicy.js';
import { withFlowSession } from '../runtime/flowSessions.js';
import type { OperationContext } from '../runtime/operationContext.js';
import { profileParam } from '../schemas/params.js';
import { defineOperation } from './operation.js';

/** The title of the project gflow checks in (made once per profile, then reused). */

const capability = z.strictObject({
  id: z.string(),
  title: z.string(),
  status: z.enum(['ok', 'drifted', 'not_offered']),
  expected: z.string(),
  found: z.string(),
});

const replyCheck = z.strictObject({
  id: z.string(),
  rpc: z.string(),
  title: z.string(),
  status: z.enum(['ok', 'drifted', 'not_seen']),
  expected: z.string(),
  found: z.string(),
  seen: z.number().int().nonnegative(),
});

/** What `checkFlow` returns on every surface. */
export const checkFlowOutput = z.strictObject({
  /** `drifted` when any capability or reply gflow depends on is not what it expects. */
  status: z.enum(['ok', 'drifted']),
  /** 0, or the flow-drift exit code (41) the CLI exits with. */
  exit_code: z.number().int(),
  profile: z.string(),
  project_id: z.string().nullable(),
  project_created: z.boolean(),
  arm: z.enum(['classic', 'agent-only', 'none']),
  build_label: z.string().nullable(),
  checked_at: z.string(),
  summary: z.strictObject({
    ok: z.number().int().nonnegative(),
    drifted: z.number().int().nonnegative(),
    not_offered: z.number().int().nonnegative(),
  }),
  capabilities: z.array(capability),
  replies: z.array(replyCheck),
  /** The capture bundle written (`capture` asked for it): its directory and files. */
  capture: z.strictObject({ dir: z.string(), files: z.array(z.string()) }).nullable(),
});
type CheckFlowOutput = z.output<typeof checkFlowOutput>;

/** Where the bundle goes: confined to the output directory on MCP and HTTP, and writable before a browser opens. */
function captureDir(context: OperationContext, value: string | undefined): { abs: string; shown: string } | null {
  if (value === undefined) return null;
  const { settings } = context.runtime;
  const confined = SURFACE_POLICY[context.surface].confineOutput;
  const abs = confined
    ? confineToOutputDir(settings.outputDir, value, { parameter: 'capture', kind: 'dir' })
    : path.resolve(value);
  ensureWritableDirectory(abs, 'capture');
  return { abs, shown: confined ? path.relative(settings.outputDir, abs) || '.' : abs };
}

function runCheck(
  context: OperationContext,
  profile: ResolvedProfile,
  record: FlowCheckRecord,
  capture: boolean,
): Promise<FlowCheckReport> {
  const { runtime, signal } = context;
  const use = { signal, onProgress: context.onProgress, facts: () => ({ operation: 'checkFlow' }) };
  return withFlowSession(runtime, profile, use, (session) =>
    session.checkFlow({
      ...(record.scratch_project_id === null ? {} : { projectId: record.scratch_project_id }),
      newProjectTitle: SCRATCH_PROJECT_TITLE,
      capture,
      signal,
    }),
  );
}

function summarise(report: FlowCheckReport): CheckFlowOutput['summary'] & { replyDrift: number } {
  const count = (status: string): number => report.capabilities.filter((c) => c.status === status).length;
  return {
    ok: count('ok'),
    drifted: count('drifted'),
    not_offered: count('not_offered'),
    replyDrift: report.replies.filter((r) => r.status === 'drifted').length,
  };
}

/** Remembers the scratch project and the check (what `gflow doctor` and the paid-run reminder read). */
function remember(profile: ResolvedProfile, report: FlowCheckReport, checkedAt: string, record: FlowCheckRecord): void {
  const { replyDrift, ...summary } = summarise(report);
  const driftedIds = [...report.capabilities, ...report.replies].filter((c) => c.status === 'drifted').map((c) => c.id);
  writeFlowCheckRecord(profile.dir, {
    version: 1,
    scratch_project_id: report.projectId ?? record.scratch_project_id,
    last_check: {
      at: checkedAt,
      status: summary.drifted + replyDrift > 0 ? 'drifted' : 'ok',
      ...summary,
      drifted_ids: driftedIds.slice(0, 20),
    },
  });
}

export const checkFlow = defineOperation({
  name: 'checkFlow',
  mcpName: 'gflow_check_flow',
  title: 'Check Flow for free',
  description:
    "The free live canary: on the profile's Flow account, in a scratch project gflow creates once and reuses, walks every control a generation needs — the settings pane and its radios, the model menus against gflow's model table, the frames and @ pickers, the upload entry, the cost line, the credit balance, the submit button, the agent composer when the account has one — and reads the read-only replies it meets with gflow's own parsers. Submits nothing and spends nothing (every submit is held in the browser). Returns per capability ok, drifted (what was expected, what was found) or not_offered; status `drifted` (exit_code 41) when anything gflow depends on changed. `capture` also writes a redacted capture bundle to that directory (masked anchors, reply shapes, Flow's build label; no prompt, cookie, token, email, id or media URL) to attach to an issue.",
  kind: 'create',
  usesBrowser: true,
  input: z.object({
    profile: profileParam,
    capture: z
      .string()
      .trim()
      .min(1)
      .max(4096)
      .optional()
      .describe(
        'A directory to write the redacted capture bundle to (manifest.json, anchors.json, replies.json); on MCP inside the output directory.',
      ),
  }),
  output: checkFlowOutput,
  handler: async (input, context) => {
    const { runtime } = context;
    const profile = resolveProfile(runtime.layout, { requested: input.profile, settings: runtime.settings });
    const dir = captureDir(context, input.capture);
    const record = readFlowCheckRecord(profile.dir);
    const report = await runCheck(context, profile, record, dir !== null);
    const checkedAt = new Date().toISOString();
    if (report.projectId !== null) {
      if (report.projectCreated)
        runtime.catalog.projects.upsert({
          profile: profile.name,
          flowProjectId: report.projectId,
          title: SCRATCH_PROJECT_TITLE,
        });
      else runtime.catalog.projects.ensure(profile.name, report.projectId);
    }
    remember(profile, report, checkedAt, record);
    const files = dir === null ? [] : await writeCaptureBundle(dir.abs, captureDocuments(report, checkedAt));
    const { replyDrift, ...summary } = summarise(report);
    const drifted = summary.drifted + replyDrift > 0;
    return {
      status: drifted ? ('drifted' as const) : ('ok' as const),
      exit_code: drifted ? exitCodeForCode('flow-drift') : 0,
      profile: profile.name,
      project_id: report.projectId,
      project_created: report.projectCreated,
      arm: report.arm,
      build_label: report.buildLabel,
      checked_at: checkedAt,
      summary,
      capabilities: [...report.capabilities],
      replies: [...report.replies],
      capture: dir === null ? null : { dir: dir.shown, files },
    };
  },
});
