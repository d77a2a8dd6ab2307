import { ConfigurationError, WireFormatError } from '@gflow/errors';
import { type VideoModel, findVideoModel } from '@gflow/flow-facts';
import { decideSubmit, readShownBalance, stoppedBeforeSubmit } from '../composer/costLine.js';
import { type OpenTimeouts, openProject } from '../composer/openProject.js';
import { dismissOverlays } from '../composer/overlays.js';
import { type GuardedSubmit, awaitReply, clickGuardedSubmit } from '../generate/submitWatcher.js';
import type { GeneratedItem, SubmitQuote } from '../generate/types.js';
import { splitOutcomes, watchVideoJob } from '../generate/videoWatcher.js';
import type { OpContext } from '../session/opContext.js';
import { checkExtendSubmit, lastSecondWindow } from '../wire/extendCheck.js';
import { isUuid } from '../wire/uuid.js';
import { type VideoRecord, findVideoRecords, findWorkflowSummaries } from '../wire/videoRecords.js';
import { extendSubmitReady, readExtendQuote, typeExtendPrompt } from './extendComposer.js';
import type { ExtendVideoRequest, FlowExtensionResult } from './extendTypes.js';
import { openExtendComposer, openSceneHolding } from './sceneEditor.js';

const DEFAULT_EXTEND_MODEL = 'veo_3_1_lite';
const FLOW_ID = /^[\w-]{1,128}$/;

/**
 * Extends a finished clip in Flow's scene editor the way a person does (flow-captures.md §10): the
 * project afresh, the clip onto a scene, the timeline's `+` → the extend entry of the model, the
 * prompt, the quote to `beforeSubmit`, the click — so the page itself sends `fZytfe`, held by the
 * submit guard until its source slot is the clip's workflow id and its frame window the clip's
 * last second. Then the page's own `as29s` (the bare workflow id, then the record) and `jwpduf`
 * (status without URL) are followed to the signed URL.
 */
export async function extendVideo(
  ctx: OpContext,
  req: ExtendVideoRequest,
  timeouts: OpenTimeouts,
): Promise<FlowExtensionResult> {
  const model = validateExtendRequest(req);
  const frameWindow = lastSecondWindow(req.source.durationSeconds);
  ctx.report({ phase: 'opening', projectId: req.projectId });
  await openProject(ctx, req.projectId, timeouts, { reuse: false });
  await dismissOverlays(ctx);
  const sceneId = await openSceneHolding(
    ctx,
    { projectId: req.projectId, mediaId: req.source.mediaId },
    timeouts.readyMs,
  );
  ctx.report({ phase: 'configuring', projectId: req.projectId });
  const field = await openExtendComposer(ctx, model);
  await typeExtendPrompt(ctx, field, req.prompt);
  const quote: SubmitQuote = {
    ...(await readExtendQuote(field)),
    source: 'cost-line',
    balance: await readShownBalance(ctx),
  };
  const base = { sceneId, source: req.source, frameWindow };
  if ((await decideSubmit(ctx, req.beforeSubmit, quote)) === 'stop')
    return { ...stoppedBeforeSubmit(ctx, { projectId: req.projectId, uploads: [], quote }), ...base };
  const tappedBeforeClick = ctx.tap.seq;
  const want = {
    workflowId: req.source.workflowId,
    mediaId: req.source.mediaId,
    window: frameWindow,
    prompt: req.prompt,
    model: model.name,
  };
  const seen = await clickGuardedSubmit(ctx, (call) => checkExtendSubmit(call, want), 15_000, extendSubmitReady(field));
  const job = await submittedJob(ctx, req, seen);
  ctx.report({
    phase: 'submitted',
    projectId: req.projectId,
    mediaIds: job.mediaIds,
    workflowIds: job.workflowIds,
    submitRpc: seen.call.rpcId,
  });
  const records = await watchVideoJob(
    ctx,
    { ...job, projectId: req.projectId },
    job.initial,
    seen.clickedAt + req.timeoutMs,
    {
      urlGraceMs: timeouts.urlGraceMs,
      sinceSeq: tappedBeforeClick,
    },
  );
  const items = splitOutcomes(ctx, records, req.projectId).map((r) =>
    itemOf(r, req.prompt, seen.verdict.modelKey, job.titles.get(r.mediaId)),
  );
  ctx.report({
    phase: 'done',
    projectId: req.projectId,
    mediaIds: items.map((i) => i.mediaId),
    workflowIds: job.workflowIds,
    status: 3,
  });
  return {
    projectId: req.projectId,
    items,
    submitRpc: seen.call.rpcId,
    submitBody: seen.redactedBody,
    uploads: [],
    arm: 'classic',
    quote,
    ...base,
  };
}

/** Refuses, before anything opens, a request the scene editor cannot honour; returns the model to pick. */
export function validateExtendRequest(req: ExtendVideoRequest): VideoModel {
  if (req.prompt.trim() === '') throw new ConfigurationError('The prompt is empty.');
  if (!(req.timeoutMs > 0)) throw new ConfigurationError('timeoutMs must be positive.');
  const { mediaId, workflowId, durationSeconds } = req.source;
  if (![req.projectId, mediaId, workflowId].every((id) => FLOW_ID.test(id)))
    throw new ConfigurationError('The project, media and workflow ids must be Flow ids.');
  if (workflowId === mediaId)
    throw new ConfigurationError(
      "The source's workflow id equals its media id: Flow bills an extend of a media id and never makes it (flow-captures §10). Pass the clip's workflow id. Nothing was submitted.",
    );
  if (!Number.isInteger(durationSeconds) || durationSeconds < 1 || durationSeconds > 60)
    throw new ConfigurationError(`The source's duration must be whole seconds (1–60), not ${String(durationSeconds)}.`);
  const model = findVideoModel(req.model ?? DEFAULT_EXTEND_MODEL);
  if (model?.family !== 'veo')
    throw new ConfigurationError(
      `Flow extends clips with Veo 3.1 models only, not ${String(req.model)}. Nothing was submitted.`,
    );
  return model;
}

interface SubmittedJob {
  readonly workflowIds: string[];
  readonly mediaIds: string[];
  readonly initial: VideoRecord[];
  /** media id → the title the reply's summary gives the new clip. */
  readonly titles: ReadonlyMap<string, string>;
}

/**
 * The new clip's ids from the `fZytfe` reply, read by shape ([U]: the reply was never captured):
 * a record or a workflow summary, else the one id it names that is not one the request carried.
 * A reply that names none is a wire-format error (the job may exist and be billed).
 */
async function submittedJob(ctx: OpContext, req: ExtendVideoRequest, seen: GuardedSubmit): Promise<SubmittedJob> {
  const payload = await awaitReply(ctx, seen, Math.min(60_000, Math.max(1_000, req.timeoutMs)));
  const known = new Set([req.projectId, req.source.mediaId, req.source.workflowId]);
  const initial = findVideoRecords(payload).filter((r) => !known.has(r.workflowId) && !known.has(r.mediaId));
  const summaries = findWorkflowSummaries(payload).filter((s) => !known.has(s.workflowId));
  const workflowIds = [...new Set([...initial.map((r) => r.workflowId), ...summaries.map((s) => s.workflowId)])];
  const mediaIds = [...new Set([...initial.map((r) => r.mediaId), ...summaries.map((s) => s.mediaId)])];
  if (workflowIds.length === 0) {
    const named = [...new Set(uuidsIn(payload))].filter((id) => !known.has(id));
    if (named.length === 1 && named[0] !== undefined) workflowIds.push(named[0]);
  }
  if (workflowIds.length !== 1)
    throw new WireFormatError(
      `The fZytfe reply names ${workflowIds.length === 0 ? 'no' : 'more than one'} new clip; the extension may exist and be billed — check the Flow project ${req.projectId}.`,
      { retryable: false, extensions: { ...ctx.spendExtensions(), flow_rpc: 'fZytfe' } },
    );
  const titles = new Map(summaries.flatMap((s) => (s.title === null ? [] : [[s.mediaId, s.title] as const])));
  return { workflowIds, mediaIds, initial, titles };
}

function uuidsIn(value: unknown, depth = 0): string[] {
  if (isUuid(value)) return [value];
  if (!Array.isArray(value) || depth > 6) return [];
  return value.flatMap((v) => uuidsIn(v, depth + 1));
}

function itemOf(r: VideoRecord, prompt: string, bodyKey: string | null, title: string | undefined): GeneratedItem {
  return {
    mediaId: r.mediaId,
    ...(title === undefined ? {} : { displayName: title }),
    workflowId: r.workflowId,
    prompt: r.prompt ?? prompt,
    modelKey: r.modelKey ?? bodyKey ?? '',
    url: r.videoUrl ?? '',
    ...(r.posterUrl === null ? {} : { posterUrl: r.posterUrl }),
    ...(r.byteSize === null ? {} : { byteSize: r.byteSize }),
  };
}
