import type { OpenTimeouts } from '../composer/openProject.js';
import type { UploadedFile } from '../composer/uploads.js';
import { agentOnlyRefusal, generateAgentImage } from '../agent/generateAgent.js';
import type { OpContext } from '../session/opContext.js';
import { checkImageSubmit } from '../wire/submitCheck.js';
import { bindPrompt } from './bindInputs.js';
import { configureImage } from './configure.js';
import { imageItems, watchImageReply } from './imageResult.js';
import { bindOnFreshPageWhenUnsure, prepareComposer, refuseUnportedReferences, resolveReferences } from './prepare.js';
import { quoteAndSubmit } from './quoteAndSubmit.js';
import { checkImageRequest } from './requestCheck.js';
import type { GenerateImageRequest, FlowGenerationResult } from './types.js';

/**
 * Text-to-image / image-to-image on the classic composer, as a person uses the page: open the
 * project (or hand the run to an agent-only composer's agent), upload, configure the settings,
 * bind the prompt and its mentions, quote and submit, then read the `ogiZ0b` reply, which is the result.
 */
export async function generateImage(
  ctx: OpContext,
  req: GenerateImageRequest,
  timeouts: OpenTimeouts,
): Promise<FlowGenerationResult> {
  const model = checkImageRequest(req);
  refuseUnportedReferences(req.references ?? []);
  const prepared = await prepareComposer(
    ctx,
    req.projectId,
    timeouts,
    agentOnlyRefusal({ kind: 'image', image: req }),
    { newProjectTitle: req.newProjectTitle },
  );
  const { projectId } = prepared;
  if (prepared.arm === 'agent-only')
    return generateAgentImage(ctx, { ...req, projectId }, { confirm: req.agentConfirm ?? 'always' });
  const uploads: UploadedFile[] = [];
  const refs = await resolveReferences(ctx, req.references ?? [], uploads, timeouts);
  const characters = req.characters ?? [];
  const { picked, costLine, attached } = await bindOnFreshPageWhenUnsure(ctx, timeouts, async () => {
    ctx.report({ phase: 'configuring', projectId });
    const configured = await configureImage(ctx, req, model);
    const bound = await bindPrompt(ctx, { prompt: req.prompt, refs, characters, mentions: true });
    return { ...configured, attached: bound };
  });
  const entityIds = attached.map((c) => c.entityId);
  const want = { token: picked.token, prompt: req.prompt, referenceIds: refs.map((r) => r.mediaId), entityIds };
  const check = (call: Parameters<typeof checkImageSubmit>[0]) => checkImageSubmit(call, want);
  const submitted = await quoteAndSubmit(ctx, { projectId, uploads, costLine, beforeSubmit: req.beforeSubmit, check });
  if (submitted.kind === 'stopped') return submitted.result;
  const { seen, quote } = submitted;
  const records = await watchImageReply(ctx, seen, { projectId, timeoutMs: req.replyTimeoutMs ?? 180_000 });
  const items = imageItems(ctx, records, { prompt: req.prompt, token: picked.token });
  if (items.length !== req.count)
    ctx.logger.warn('image count differs from the request', { asked: req.count, got: items.length });
  const mediaIds = items.map((i) => i.mediaId);
  const workflowIds = items.flatMap((i) => (i.workflowId === null ? [] : [i.workflowId]));
  ctx.report({ phase: 'done', projectId, mediaIds, workflowIds });
  const submit = { submitRpc: seen.call.rpcId, submitBody: seen.redactedBody };
  const projectOf = records[0]?.projectId ?? projectId;
  return { projectId: projectOf, items, ...submit, uploads, arm: 'classic', quote, characters: attached };
}
