import { agentOnlyRefusal, generateAgentVideo } from '../agent/generateAgent.js';
import type { OpenTimeouts } from '../composer/openProject.js';
import { boundChipThumbs } from '../composer/warmPage.js';
import type { UploadedFile } from '../composer/uploads.js';
import type { OpContext } from '../session/opContext.js';
import type { DecodedCall } from '../wire/formBody.js';
import { checkVideoSubmit } from '../wire/submitCheck.js';
import { type VideoInputs, bindVideo, resolveVideoInputs } from './bindInputs.js';
import { configureVideo } from './configure.js';
import {
  type PreparedComposer,
  bindOnFreshPageWhenUnsure,
  prepareComposer,
  refuseUnportedReferences,
} from './prepare.js';
import { type Submitted, quoteAndSubmit } from './quoteAndSubmit.js';
import { type VideoSettings, checkVideoRequest } from './requestCheck.js';
import type { FlowGenerationResult, GenerateVideoRequest } from './types.js';
import { finishedClips, startedClips } from './videoResult.js';

/** Opens the project with a composer in front; an agent-only composer only for a form its agent can take. */
function openComposer(ctx: OpContext, req: GenerateVideoRequest, timeouts: OpenTimeouts): Promise<PreparedComposer> {
  const frames = [req.startFrame, req.endFrame].flatMap((f) => (f === undefined ? [] : [f]));
  refuseUnportedReferences([...frames, ...(req.references ?? [])]);
  const refusal = agentOnlyRefusal({ kind: 'video', video: req });
  return prepareComposer(ctx, req.projectId, timeouts, refusal, {
    newProjectTitle: req.newProjectTitle,
    bindsFrames: req.startFrame !== undefined,
  });
}

/** What the guard holds the page's own submit body to: this mode, model, duration, prompt, frames and mentions. */
function submitCheck(req: GenerateVideoRequest, settings: VideoSettings, inputs: VideoInputs, entityIds: string[]) {
  const want = {
    mode: req.mode,
    model: settings.model?.name ?? null,
    duration: settings.duration ?? null,
    prompt: req.prompt,
    startId: inputs.start?.mediaId ?? null,
    endId: inputs.end?.mediaId ?? null,
    referenceIds: inputs.refs.map((r) => r.mediaId),
    entityIds,
  };
  return (call: DecodedCall) => checkVideoSubmit(call, want);
}

/**
 * What the run leaves bound for the next on a kept page, read right after its guarded submit went
 * out: its Frames chips' thumbnails, when there is one chip for each frame that body carried (a
 * composer that clears them after a submit leaves none).
 */
async function noteFramesLeft(ctx: OpContext, inputs: VideoInputs): Promise<void> {
  const mediaIds = [inputs.start, inputs.end].flatMap((f) => (f === undefined ? [] : [f.mediaId]));
  if (mediaIds.length === 0) return;
  const thumbs = await boundChipThumbs(ctx).catch((): string[] => []);
  if (thumbs.length === mediaIds.length) ctx.framesBound = { thumbs, mediaIds };
}

/** After the click: the clips the reply (or the project's listing, when it was lost) names, followed to their URLs. */
async function watchClips(
  ctx: OpContext,
  req: GenerateVideoRequest,
  run: {
    sent: Extract<Submitted, { kind: 'sent' }>;
    projectId: string;
    uploads: UploadedFile[];
    mentions: number;
    characters: number;
    timeouts: OpenTimeouts;
  },
): Promise<FlowGenerationResult> {
  const { seen, quote, tappedBeforeClick } = run.sent;
  const { projectId, uploads, mentions, characters } = run;
  const lost = {
    projectId,
    prompt: req.prompt,
    mode: req.mode,
    count: req.count,
    uploadedFiles: uploads.length,
    characters,
    mentions,
  };
  const started = await startedClips(ctx, seen, lost, { ...run.timeouts, jobMs: req.timeoutMs });
  const watch = {
    prompt: req.prompt,
    timeoutMs: req.timeoutMs,
    urlGraceMs: run.timeouts.urlGraceMs,
    sinceSeq: tappedBeforeClick,
  };
  const finished = await finishedClips(ctx, { ...watch, seen, started, projectId });
  const { items } = finished;
  const workflowIds = items.flatMap((i) => (i.workflowId === null ? [] : [i.workflowId]));
  ctx.report({ phase: 'done', projectId, mediaIds: items.map((i) => i.mediaId), workflowIds, status: 3 });
  const submit = { submitRpc: seen.call.rpcId, submitBody: seen.redactedBody };
  const recovered = started.recovered ? { recovered: true } : {};
  return { projectId: finished.projectId, items, ...submit, uploads, arm: 'classic', quote, ...recovered };
}

/**
 * Text-, image- and reference-to-video on the classic composer, as a person uses the page: open
 * the project (or hand a one-clip t2v to an agent-only composer's agent), upload, configure the
 * settings, bind frames, prompt and mentions, quote and submit, then follow the clips through the
 * page's own polls to their signed URLs.
 */
export async function generateVideo(
  ctx: OpContext,
  req: GenerateVideoRequest,
  timeouts: OpenTimeouts,
): Promise<FlowGenerationResult> {
  const settings = checkVideoRequest(req);
  const prepared = await openComposer(ctx, req, timeouts);
  const { projectId } = prepared;
  if (prepared.arm === 'agent-only')
    return generateAgentVideo(ctx, { ...req, projectId }, { confirm: req.agentConfirm ?? 'always' });
  const uploads: UploadedFile[] = [];
  const inputs = await resolveVideoInputs(ctx, req, uploads, timeouts);
  const { costLine, attached } = await bindOnFreshPageWhenUnsure(ctx, timeouts, async () => {
    ctx.report({ phase: 'configuring', projectId });
    const configured = await configureVideo(ctx, req, settings);
    return { costLine: configured, attached: await bindVideo(ctx, req, inputs, settings.model) };
  });
  const entityIds = attached.map((c) => c.entityId);
  const check = submitCheck(req, settings, inputs, entityIds);
  const sent = await quoteAndSubmit(ctx, { projectId, uploads, costLine, beforeSubmit: req.beforeSubmit, check });
  if (sent.kind === 'stopped') return sent.result;
  await noteFramesLeft(ctx, inputs);
  const mentions = inputs.refs.length + entityIds.length;
  const run = { sent, projectId, uploads, mentions, characters: entityIds.length, timeouts };
  return { ...(await watchClips(ctx, req, run)), characters: attached };
}
