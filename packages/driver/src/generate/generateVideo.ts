import { ConfigurationError, WireFormatError, isGflowError } from '@gflow/errors';
import { bindFrameRef } from '../composer/frames.js';
import { attachMentions } from '../composer/mentions.js';
import { pickModel } from '../composer/modelMenu.js';
import type { OpenTimeouts } from '../composer/openProject.js';
import { charactersLeft, typePromptWithMentions } from '../composer/promptMentions.js';
import { typePrompt } from '../composer/promptText.js';
import { closeSettings, numberToken, setChoice, setDurationSlider } from '../composer/settingsPane.js';
import { decideSubmit, readCostLine, readShownBalance, stoppedBeforeSubmit } from '../composer/costLine.js';
import type { UploadedFile } from '../composer/uploads.js';
import { VIDEO_ASPECT_ICONS, findVideoModel } from '@gflow/flow-facts';
import type { OpContext } from '../session/opContext.js';
import { checkVideoSubmit } from '../wire/submitCheck.js';
import { type VideoRecord, findVideoRecords, findWorkflowSummaries } from '../wire/videoRecords.js';
import { followLostSubmit, lostReplyFollowable } from './lostReply.js';
import { prepareComposer, refuseUnportedReferences, resolveReferences } from './prepare.js';
import { awaitReply, clickGuardedSubmit } from './submitWatcher.js';
import { agentOnlyRefusal, generateAgentVideo } from '../agent/generateAgent.js';
import type { GeneratedItem, GenerateVideoRequest, FlowGenerationResult } from './types.js';
import { splitOutcomes, watchVideoJob } from './videoWatcher.js';
import { validateVideoRequest } from './validateVideo.js';

/** Text-, image- and reference-to-video on the classic composer. */
export async function generateVideo(
  ctx: OpContext,
  req: GenerateVideoRequest,
  timeouts: OpenTimeouts,
): Promise<FlowGenerationResult> {
  const plan = validateVideoRequest(req);
  refuseUnportedReferences([
    ...(req.startFrame === undefined ? [] : [req.startFrame]),
    ...(req.endFrame === undefined ? [] : [req.endFrame]),
    ...(req.references ?? []),
  ]);
  const prepared = await prepareComposer(
    ctx,
    req.projectId,
    timeouts,
    agentOnlyRefusal({ kind: 'video', video: req }),
    { inPlace: [...(req.references ?? []), req.startFrame, req.endFrame], newProjectTitle: req.newProjectTitle },
  );
  const { projectId } = prepared;
  if (prepared.arm === 'agent-only')
    return generateAgentVideo(ctx, { ...req, projectId }, { confirm: req.agentConfirm ?? 'always' });
  const uploads: UploadedFile[] = [];
  const [start] = req.startFrame === undefined ? [] : await resolveReferences(ctx, [req.startFrame], uploads, timeouts);
  const [end] = req.endFrame === undefined ? [] : await resolveReferences(ctx, [req.endFrame], uploads, timeouts);
  const refs = await resolveReferences(ctx, req.references ?? [], uploads, timeouts);

  ctx.report({ phase: 'configuring', projectId });
  await setChoice(ctx, {
    kind: 'mode',
    wanted: 'Video',
    match: (r) => r.icons.includes('videocam'),
    ifAbsent: 'refuse',
  });
  const submode = req.mode === 'r2v' ? 'chrome_extension' : 'crop_free';
  await setChoice(ctx, {
    kind: 'submode',
    wanted: req.mode === 'r2v' ? 'Ingredients' : 'Frames',
    match: (r) => r.icons.includes(submode),
    ifAbsent: 'refuse',
  });
  await setChoice(ctx, {
    kind: 'aspect',
    wanted: req.aspect,
    match: (r) => r.icons.includes(VIDEO_ASPECT_ICONS[req.aspect]),
    ifAbsent: 'refuse',
  });
  if (plan.model !== null) {
    const info = findVideoModel(plan.model);
    if (info !== undefined) await pickModel(ctx, { candidates: info.menu, kind: 'video' });
  }
  if (req.resolution !== undefined) {
    const res = req.resolution;
    await setChoice(ctx, {
      kind: 'resolution',
      wanted: res,
      match: (r) => r.text.toLowerCase() === res,
      ifAbsent: 'refuse',
    });
  }
  if (plan.duration !== null) {
    const seconds = plan.duration;
    // Omni 1.2 Flash sets its duration with a slider; the other models with radios.
    if (!(await setDurationSlider(ctx, seconds))) {
      await setChoice(ctx, {
        kind: 'duration',
        wanted: `${seconds} s`,
        match: (r) => numberToken(r.text) === seconds,
        ifAbsent: 'refuse',
      });
    }
  }
  await setChoice(ctx, {
    kind: 'count',
    wanted: `x${req.count}`,
    match: (r) => r.text.toLowerCase() === `x${req.count}`,
    ifAbsent: req.count === 1 ? 'skip' : 'refuse',
  });
  // The cost line under the count row, read once every setting is in place (flow-wire §4).
  const costLine = await readCostLine(ctx);
  await closeSettings(ctx);

  if (start !== undefined) await bindFrameRef(ctx, 'Start', start, 1);
  if (end !== undefined) await bindFrameRef(ctx, 'End', end, 2);
  // Characters go with r2v only: there an `@Name` in the prompt is attached where it stands (the
  // characters it did not name go at the end); in the other modes it is text, like any word.
  const passed = req.characters ?? [];
  const mentioned = req.mode === 'r2v' ? await typePromptWithMentions(ctx, req.prompt, passed) : [];
  if (req.mode !== 'r2v') await typePrompt(ctx, req.prompt);
  await attachMentions(ctx, refs, charactersLeft(passed, mentioned));
  const entityIds = [...new Set([...passed, ...mentioned].map((c) => c.entityId))];
  const info = plan.model === null ? undefined : findVideoModel(plan.model);
  if (info !== undefined && refs.length + entityIds.length > info.refCap) {
    throw new ConfigurationError(
      `${info.label} takes at most ${info.refCap} references; with the characters named by @ in the prompt there are ${refs.length + entityIds.length}. Nothing was submitted.`,
    );
  }

  const want = {
    mode: req.mode,
    model: plan.model,
    duration: plan.duration,
    prompt: req.prompt,
    startId: start?.mediaId ?? null,
    endId: end?.mediaId ?? null,
    referenceIds: refs.map((r) => r.mediaId),
    entityIds,
  };
  const quote = { ...costLine, source: 'cost-line' as const, balance: await readShownBalance(ctx) };
  if ((await decideSubmit(ctx, req.beforeSubmit, quote)) === 'stop')
    return stoppedBeforeSubmit(ctx, { projectId, uploads, quote });
  const tappedBeforeClick = ctx.tap.seq;
  const seen = await clickGuardedSubmit(ctx, (call) => checkVideoSubmit(call, want), 15_000);
  const { clickedAt } = seen;
  let initial: VideoRecord[];
  let summaries: ReturnType<typeof findWorkflowSummaries>;
  let recovered = false;
  try {
    const payload = await awaitReply(ctx, seen, Math.min(60_000, Math.max(1_000, req.timeoutMs)));
    initial = findVideoRecords(payload);
    summaries = findWorkflowSummaries(payload);
  } catch (error) {
    // An unreadable reply (the job may exist and be billed): follow it to its clip where the run can be named (#1112, #1141).
    const lost = {
      projectId,
      prompt: req.prompt,
      mode: req.mode,
      count: req.count,
      uploadedFiles: uploads.length,
      characters: entityIds.length,
      mentions: refs.length + entityIds.length,
      modelKey: seen.verdict.modelKey,
      clickedAt,
    };
    const unreadable =
      isGflowError(error) && error.extensions['reply_unreadable'] === true && lostReplyFollowable(lost);
    // MZZa6b answering [5] with no payload while the job is queued (flow-captures.md §9, measured with a character): follow it too.
    const queued =
      isGflowError(error) &&
      error.extensions['flow_rpc'] === 'MZZa6b' &&
      error.extensions['flow_status'] === 5 &&
      req.count === 1;
    if (!unreadable && !queued) throw error;
    initial = [await followLostSubmit(ctx, lost)];
    summaries = [];
    recovered = true;
  }
  const workflowIds = [...new Set([...initial.map((r) => r.workflowId), ...summaries.map((s) => s.workflowId)])];
  const mediaIds = [...new Set([...initial.map((r) => r.mediaId), ...summaries.map((s) => s.mediaId)])];
  if (workflowIds.length === 0) {
    throw new WireFormatError(`The ${seen.call.rpcId} reply names no workflow or media id.`, {
      retryable: false,
      extensions: ctx.spendExtensions(),
    });
  }
  ctx.report({ phase: 'submitted', projectId, mediaIds, workflowIds, submitRpc: seen.call.rpcId });
  const records = await watchVideoJob(ctx, { workflowIds, mediaIds, projectId }, initial, clickedAt + req.timeoutMs, {
    urlGraceMs: timeouts.urlGraceMs,
    sinceSeq: tappedBeforeClick,
  });
  const done = splitOutcomes(ctx, records, projectId);
  const items: GeneratedItem[] = done.map((r) => ({
    mediaId: r.mediaId,
    workflowId: r.workflowId,
    prompt: r.prompt ?? req.prompt,
    modelKey: r.modelKey ?? seen.verdict.modelKey ?? '',
    url: r.videoUrl ?? '',
    ...(r.posterUrl === null ? {} : { posterUrl: r.posterUrl }),
    ...(r.byteSize === null ? {} : { byteSize: r.byteSize }),
  }));
  for (const item of items) {
    if (seen.verdict.modelKey !== null && item.modelKey !== seen.verdict.modelKey) {
      ctx.logger.warn('the record names another model key than the submit body', {
        record: item.modelKey,
        body: seen.verdict.modelKey,
      });
    }
  }
  ctx.report({
    phase: 'done',
    projectId,
    mediaIds: items.map((i) => i.mediaId),
    workflowIds: items.flatMap((i) => (i.workflowId === null ? [] : [i.workflowId])),
    status: 3,
  });
  return {
    projectId: done[0]?.projectId ?? projectId,
    items,
    submitRpc: seen.call.rpcId,
    submitBody: seen.redactedBody,
    uploads,
    arm: 'classic',
    quote,
    ...(recovered ? { recovered: true } : {}),
  };
}
