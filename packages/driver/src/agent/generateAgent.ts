import { FlowAgentUiError, FlowHostMigratedError, isGflowError, redactText } from '@gflow/errors';
import { type MenuEntry, findImageModel, findVideoModel } from '@gflow/flow-facts';
import type {
  GenerateImageRequest,
  GenerateVideoRequest,
  FlowGenerationResult,
  GeneratedItem,
} from '../generate/types.js';
import type { OpContext } from '../session/opContext.js';
import { type AgentSettingsWanted, applyAgentSettings, restoreAgentSettings } from './agentSettings.js';
import {
  type AgentKind,
  type AgentTurnResult,
  agentDirective,
  resolveOpaque,
  runAgentTurn,
  uuidOfCdnUrl,
} from './agentTurn.js';

/** What the agent-only composer can take (seed 000 §6.1, #799): text-to-image, and text-to-video of one clip. */
export function agentOnlyRefusal(
  req: { kind: 'image'; image: GenerateImageRequest } | { kind: 'video'; video: GenerateVideoRequest },
): string | null {
  if (req.kind === 'image') {
    const r = req.image;
    if ((r.references ?? []).length > 0) return 'reference images (image-to-image)';
    if ((r.characters ?? []).length > 0) return 'saved characters';
    return null;
  }
  const v = req.video;
  if (v.mode !== 't2v') return v.mode === 'i2v' ? 'image-to-video' : 'reference-to-video';
  if ((v.characters ?? []).length > 0) return 'saved characters';
  if (v.count !== 1) return 'more than one video';
  if (v.model !== undefined && findVideoModel(v.model)?.name === 'omni_1_2_flash') return 'Omni 1.2 Flash';
  if (v.duration !== undefined) return 'a duration (the agent has no duration setting)';
  if (v.resolution !== undefined) return 'a resolution (the agent has no resolution setting)';
  return null;
}

/** The exit-36 refusal of a form the agent-only composer cannot take (nothing was clicked). */
export function agentOnlyRefused(what: string): FlowHostMigratedError {
  return new FlowHostMigratedError(
    `This account's Flow composer is agent-only (no classic composer, even after reloading), and gflow drives only text-to-image and one-clip text-to-video through its agent, not ${what}. Nothing was clicked or spent.`,
    {
      retryable: false,
      remediationHint:
        'Use text-to-image or text-to-video without references, characters, duration or resolution on this account, or generate from the Flow web UI.',
    },
  );
}

export interface AgentRunOptions {
  /** "Confirm before generating" for the run (GFLOW_CLI_AGENT_CONFIRM). */
  readonly confirm: 'always' | 'never';
}

async function withSettings<T>(ctx: OpContext, wanted: AgentSettingsWanted, run: () => Promise<T>): Promise<T> {
  ctx.report({ phase: 'configuring' });
  const before = await applyAgentSettings(ctx, wanted);
  let failed = true;
  try {
    const out = await run();
    failed = false;
    return out;
  } finally {
    try {
      await restoreAgentSettings(ctx, before);
    } catch (error) {
      // The run's own outcome wins; a settings view that will not take the old values is logged.
      ctx.logger.warn('could not restore the agent settings', {
        failed,
        error: isGflowError(error) ? error.detail : String(error),
      });
    }
  }
}

async function itemsOf(
  ctx: OpContext,
  kind: AgentKind,
  turn: AgentTurnResult,
  prompt: string,
): Promise<GeneratedItem[]> {
  const items: GeneratedItem[] = [];
  for (const [i, tile] of turn.tiles.entries()) {
    if (tile.kind !== kind) continue;
    const picture = uuidOfCdnUrl(tile.picture) !== null ? tile.picture : await resolveOpaque(ctx, tile.picture);
    let mediaId = uuidOfCdnUrl(picture);
    // A clip's tile may only have an opaque poster; the chat's video option names the uuid (flow-wire §4).
    if (kind === 'video') mediaId = uuidOfCdnUrl(turn.posters[i] ?? '') ?? mediaId;
    if (mediaId === null)
      throw new FlowAgentUiError(`The agent made a ${kind}, but gflow could not tell its media id from the page.`, {
        retryable: false,
        extensions: ctx.spendExtensions(),
      });
    const named = tile.name === null ? {} : { displayName: tile.name };
    if (kind === 'image') {
      items.push({ mediaId, ...named, workflowId: null, prompt, modelKey: '', url: picture, seed: 0 });
      continue;
    }
    const playable =
      tile.playable === null
        ? null
        : uuidOfCdnUrl(tile.playable)
          ? tile.playable
          : await resolveOpaque(ctx, tile.playable);
    if (playable === null)
      throw new FlowAgentUiError('The agent made a clip, but its tile never offered a playable source.', {
        retryable: false,
        extensions: { ...ctx.spendExtensions(), flow_media_id: mediaId },
      });
    items.push({
      mediaId,
      ...named,
      workflowId: null,
      prompt,
      modelKey: '',
      url: playable,
      posterUrl: picture,
      seed: 0,
    });
  }
  return items;
}

function checkCount(
  ctx: OpContext,
  kind: AgentKind,
  items: readonly GeneratedItem[],
  req: { count: number; reply: string; others: number },
): void {
  const extra = {
    ...ctx.spendExtensions(),
    ...(req.reply ? { agent_reply: redactText(req.reply).slice(0, 500) } : {}),
  };
  if (req.others > 0)
    throw new FlowAgentUiError(
      `The agent made ${req.others} ${kind === 'image' ? 'video' : 'image'}(s) where ${kind === 'image' ? 'images were' : 'a video was'} asked; gflow does not take a turn that did something else. Look in the Flow project.`,
      { retryable: false, extensions: extra },
    );
  if (items.length > req.count)
    throw new FlowAgentUiError(
      `The agent made ${items.length} ${kind}s where ${req.count} was asked; gflow does not take a turn that did more than asked. They are in the Flow project.`,
      { retryable: false, extensions: { ...extra, flow_media_ids: items.map((i) => i.mediaId) } },
    );
  if (items.length === 0 && kind === 'image')
    throw new FlowAgentUiError('The agent finished its turn without making an image.', {
      retryable: false,
      extensions: extra,
    });
  if (items.length === 0)
    throw ctx.timeout(
      "The agent's video turn ended without a clip; it was already sent, so look in the Flow project before retrying",
    );
  if (items.length < req.count)
    ctx.logger.warn('the agent made fewer results than asked', { asked: req.count, got: items.length });
}

/** Text-to-image through the agent-only composer's chat agent. */
export async function generateAgentImage(
  ctx: OpContext,
  req: GenerateImageRequest & { projectId: string },
  options: AgentRunOptions,
): Promise<FlowGenerationResult> {
  const model = findImageModel(req.model);
  const menu = model?.menu as readonly [MenuEntry, ...MenuEntry[]] | undefined;
  return withSettings(
    ctx,
    { imageAspect: req.aspect, imageCount: req.count, ...(menu ? { imageModel: menu } : {}), confirm: options.confirm },
    async () => {
      const turn = await runAgentTurn(ctx, {
        kind: 'image',
        directive: agentDirective('image', req.prompt, req.aspect, req.count),
        count: req.count,
        modelLabels: menu?.map((e) => e.label) ?? [],
        timeoutMs: req.replyTimeoutMs ?? 180_000,
        ...(req.beforeSubmit ? { beforeSubmit: req.beforeSubmit } : {}),
        // Only a video turn's credit gate was described (flow-wire §4); an image turn may spend unquoted.
        gateExpected: false,
      });
      if (turn.stopped !== undefined) return done(ctx, req.projectId, [], turn);
      const items = await itemsOf(ctx, 'image', turn, req.prompt);
      checkCount(ctx, 'image', items, {
        count: req.count,
        reply: turn.lastReply,
        others: turn.tiles.length - items.length,
      });
      return done(ctx, req.projectId, items, turn);
    },
  );
}

/** Text-to-video (one clip) through the agent-only composer's chat agent. */
export async function generateAgentVideo(
  ctx: OpContext,
  req: GenerateVideoRequest & { projectId: string },
  options: AgentRunOptions,
): Promise<FlowGenerationResult> {
  const model = req.model === undefined ? undefined : findVideoModel(req.model);
  return withSettings(
    ctx,
    { videoAspect: req.aspect, videoCount: 1, ...(model ? { videoModel: model.menu } : {}), confirm: options.confirm },
    async () => {
      const turn = await runAgentTurn(ctx, {
        kind: 'video',
        directive: agentDirective('video', req.prompt, req.aspect, 1),
        count: 1,
        modelLabels: model?.menu.map((e) => e.label) ?? [],
        timeoutMs: req.timeoutMs,
        ...(req.beforeSubmit ? { beforeSubmit: req.beforeSubmit } : {}),
        gateExpected: options.confirm === 'always',
      });
      if (turn.stopped !== undefined) return done(ctx, req.projectId, [], turn);
      const items = await itemsOf(ctx, 'video', turn, req.prompt);
      checkCount(ctx, 'video', items, { count: 1, reply: turn.lastReply, others: turn.tiles.length - items.length });
      return done(ctx, req.projectId, items, turn);
    },
  );
}

function done(
  ctx: OpContext,
  projectId: string,
  items: readonly GeneratedItem[],
  turn: AgentTurnResult,
): FlowGenerationResult {
  ctx.report({ phase: 'done', projectId, mediaIds: items.map((i) => i.mediaId) });
  return {
    projectId,
    items,
    submitRpc: 'agent',
    submitBody: turn.quote === null ? '' : `agent confirmation: ${turn.quote.text}`,
    uploads: [],
    arm: 'agent-only',
    ...(turn.quote?.credits == null ? {} : { agentQuotedCredits: turn.quote.credits }),
    ...(turn.submitQuote ? { quote: turn.submitQuote } : {}),
    ...(turn.stopped ? { stopped: turn.stopped } : {}),
  };
}
