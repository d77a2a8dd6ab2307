import { ConfigurationError, WireFormatError } from '@gflow/errors';
import type { OpenTimeouts } from '../composer/openProject.js';
import { pickModel } from '../composer/modelMenu.js';
import { attachMentions } from '../composer/mentions.js';
import { charactersLeft, typePromptWithMentions } from '../composer/promptMentions.js';
import { closeSettings, setChoice } from '../composer/settingsPane.js';
import { decideSubmit, readCostLine, readShownBalance, stoppedBeforeSubmit } from '../composer/costLine.js';
import type { UploadedFile } from '../composer/uploads.js';
import { IMAGE_ASPECT_ICONS, findImageModel } from '@gflow/flow-facts';
import type { OpContext } from '../session/opContext.js';
import { findImageRecords } from '../wire/imageRecords.js';
import { checkImageSubmit } from '../wire/submitCheck.js';
import { prepareComposer, refuseUnportedReferences, resolveReferences, validateCharacters } from './prepare.js';
import { awaitReply, clickGuardedSubmit } from './submitWatcher.js';
import { agentOnlyRefusal, generateAgentImage } from '../agent/generateAgent.js';
import type { GeneratedItem, GenerateImageRequest, FlowGenerationResult } from './types.js';

export function validateImageRequest(req: GenerateImageRequest): void {
  const known = findImageModel(req.model);
  if (known === undefined) throw new ConfigurationError(`Unknown image model ${req.model}.`);
  if (!known.onFlowHost) throw new ConfigurationError(`${known.label} is not offered on flow.google.com.`);
  if (!(req.aspect in IMAGE_ASPECT_ICONS)) throw new ConfigurationError(`Unsupported image aspect ${req.aspect}.`);
  if (!Number.isInteger(req.count) || req.count < 1 || req.count > 4)
    throw new ConfigurationError('Image count must be 1–4.');
  if (req.prompt.trim() === '') throw new ConfigurationError('The prompt is empty.');
  validateCharacters(req.characters ?? []);
}

/** Text-to-image / image-to-image on the classic composer; the `ogiZ0b` reply is the result. */
export async function generateImage(
  ctx: OpContext,
  req: GenerateImageRequest,
  timeouts: OpenTimeouts,
): Promise<FlowGenerationResult> {
  validateImageRequest(req);
  const model = findImageModel(req.model);
  if (model === undefined) throw new ConfigurationError(`Unknown image model ${req.model}.`);
  refuseUnportedReferences(req.references ?? []);
  const characters = req.characters ?? [];
  const prepared = await prepareComposer(
    ctx,
    req.projectId,
    timeouts,
    agentOnlyRefusal({ kind: 'image', image: req }),
    { inPlace: req.references ?? [], newProjectTitle: req.newProjectTitle },
  );
  const { projectId } = prepared;
  if (prepared.arm === 'agent-only')
    return generateAgentImage(ctx, { ...req, projectId }, { confirm: req.agentConfirm ?? 'always' });
  const uploads: UploadedFile[] = [];
  const refs = await resolveReferences(ctx, req.references ?? [], uploads, timeouts);

  ctx.report({ phase: 'configuring', projectId });
  await setChoice(ctx, { kind: 'mode', wanted: 'Image', match: (r) => r.icons.includes('image'), ifAbsent: 'refuse' });
  await setChoice(ctx, {
    kind: 'aspect',
    wanted: req.aspect,
    match: (r) => r.icons.includes(IMAGE_ASPECT_ICONS[req.aspect]),
    ifAbsent: 'refuse',
  });
  const picked = await pickModel(ctx, { candidates: model.menu, kind: 'image' });
  await setChoice(ctx, {
    kind: 'count',
    wanted: `x${req.count}`,
    match: (r) => r.text.toLowerCase() === `x${req.count}`,
    ifAbsent: req.count === 1 ? 'skip' : 'refuse',
  });
  // The cost line under the count row (images Flow quotes as 0 say 0), read once every setting is in place.
  const costLine = await readCostLine(ctx);
  await closeSettings(ctx);
  // `@Name` in the prompt is attached where it stands; the characters it did not name go at the end.
  const mentioned = await typePromptWithMentions(ctx, req.prompt, characters);
  await attachMentions(ctx, refs, charactersLeft(characters, mentioned));
  const entityIds = [...new Set([...characters, ...mentioned].map((c) => c.entityId))];

  const quote = { ...costLine, source: 'cost-line' as const, balance: await readShownBalance(ctx) };
  if ((await decideSubmit(ctx, req.beforeSubmit, quote)) === 'stop')
    return stoppedBeforeSubmit(ctx, { projectId, uploads, quote });

  const seen = await clickGuardedSubmit(
    ctx,
    (call) =>
      checkImageSubmit(call, {
        token: picked.token,
        prompt: req.prompt,
        referenceIds: refs.map((r) => r.mediaId),
        entityIds,
      }),
    15_000,
  );
  ctx.report({ phase: 'submitted', projectId, submitRpc: seen.call.rpcId });
  ctx.report({ phase: 'generating', projectId });
  const payload = await awaitReply(ctx, seen, req.replyTimeoutMs ?? 180_000);
  const records = findImageRecords(payload);
  if (records.length === 0) {
    // Not a content refusal: none of that shape was ever captured, and a flaky real run answered
    // 813 bytes without a record (flow-captures.md §6). Policy refusals come as refusal frames.
    throw new WireFormatError(
      `Flow answered the image submit (${seen.call.rpcId}) with no image record gflow can read.`,
      {
        retryable: false,
        remediationHint: `The image may still appear in the Flow project${projectId ? ` ${projectId}` : ''}: look there before retrying (a retry may make another one). If it keeps happening, file an issue with the incident bundle.`,
        extensions: { ...ctx.spendExtensions(), flow_rpc: seen.call.rpcId, flow_project_id: projectId },
      },
    );
  }
  const items: GeneratedItem[] = records.map((r) => {
    if (r.url === null) {
      throw new WireFormatError(`The image record ${r.mediaId} carries no URL.`, {
        retryable: false,
        extensions: { ...ctx.spendExtensions(), flow_media_id: r.mediaId },
      });
    }
    return {
      mediaId: r.mediaId,
      workflowId: r.workflowId,
      prompt: r.prompt ?? req.prompt,
      modelKey: picked.token,
      url: r.url,
      ...(r.title === null || r.title === '' ? {} : { displayName: r.title }),
      ...(r.seed === null ? {} : { seed: r.seed }),
      ...(r.width === null ? {} : { width: r.width }),
      ...(r.height === null ? {} : { height: r.height }),
    };
  });
  if (items.length !== req.count)
    ctx.logger.warn('image count differs from the request', { asked: req.count, got: items.length });
  const mediaIds = items.map((i) => i.mediaId);
  ctx.report({
    phase: 'done',
    projectId,
    mediaIds,
    workflowIds: items.flatMap((i) => (i.workflowId === null ? [] : [i.workflowId])),
  });
  return {
    projectId: records[0]?.projectId ?? projectId,
    items,
    submitRpc: seen.call.rpcId,
    submitBody: seen.redactedBody,
    uploads,
    arm: 'classic',
    quote,
  };
}
