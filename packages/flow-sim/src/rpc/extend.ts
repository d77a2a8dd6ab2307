import { extensionStartFrame } from '../media/extensionClip.js';
import type { Media } from '../state/library.js';
import type { Scene } from '../state/scenes.js';
import { type ExtendModel, FPS, extendModelOfKey } from '../wire/extendModels.js';
import { VIDEO_ASPECTS, videoCost } from '../wire/models.js';
import { videoRecord, videoStatus, workflowSummary } from '../wire/records.js';
import { RpcRefusal, asArray, asString, projectOfContext, promptOf } from './rpcTypes.js';
import type { RpcContext, RpcResult } from './rpcTypes.js';
import { createJob } from './videoSubmit.js';

/** What one `fZytfe` body asks for, read by the layout §10 captured. */
interface ExtendAsk {
  readonly projectId: string;
  readonly scene: Scene;
  readonly sourceId: string;
  readonly window: readonly [number, number];
  readonly prompt: string;
  readonly entry: ExtendModel;
  readonly aspectIndex: number;
}

/**
 * `fZytfe`, the scene editor's extend (flow-captures.md §10). Inner
 * `[[[[null, SOURCE_WORKFLOW_ID, START, END], promptStruct, MODEL_KEY, ASPECT_IDX, null,
 * [SCENE_ID, null, null, null, uuid, uuid]]], ctx, [uuid, 2, null, [SCENE_ID, 2]]]`.
 * A workflow id in the source slot makes the extension: a clip of `extendLength` seconds whose
 * first frame is in the source's last second (`extendOverlap`), billed like a clip of its length
 * (§ "Credits" [U]). A media id there is what §10 measured: accepted, answered with an echo record,
 * billed, and never scheduled (status 6 for ever). The reply layout was not captured [U]
 * (`extendReply`).
 */
export function extend(ctx: RpcContext): RpcResult {
  const ask = readExtend(ctx);
  const { byWorkflow, media: source } = resolveSource(ctx, ask.sourceId);
  const seconds = Number(ctx.state.variants.extendLength);
  checkWindow(source, ask.window);
  const cost = videoCost(ask.entry.model, seconds, 1, '720p');
  if (ctx.account.credits < cost) throw new RpcRefusal(8, 'PUBLIC_ERROR_INSUFFICIENT_CREDITS');
  ctx.account.credits -= cost;
  const overlap = Number(ctx.state.variants.extendOverlap);
  const made = createJob(ctx, {
    projectId: ask.projectId,
    prompt: ask.prompt,
    key: ask.entry.key,
    aspectIndex: ask.aspectIndex,
    seconds,
    resolution: '720p',
    charged: cost,
    startFrameId: undefined,
    extendsFrom: { mediaId: source.id, fromFrame: extensionStartFrame(ask.window[1], overlap, FPS) },
  });
  if (!byWorkflow) neverSchedule(made);
  ctx.state.scenes.append(ask.scene.id, [made.id]);
  ctx.state.onChange();
  return {
    items: [{ rpcId: ctx.rpcId, payload: replyOf(ctx, made) }],
    delayMs: ctx.state.ms('videoSubmitReply'),
    charged: cost,
  };
}

function readExtend(ctx: RpcContext): ExtendAsk {
  const parts = asArray(ctx.inner, 'inner');
  const requests = asArray(parts[0], 'requests');
  if (requests.length !== 1) throw new RpcRefusal(3, 'INVALID_ARGUMENT: one extension per request');
  const projectId = projectOfContext(ctx, parts[1]);
  const request = asArray(requests[0], 'request');
  const source = asArray(request[0], 'source');
  const [start, end] = [source[2], source[3]];
  if (!Number.isInteger(start) || !Number.isInteger(end)) throw new RpcRefusal(3, 'INVALID_ARGUMENT: frame window');
  const entry = extendModelOfKey(asString(request[2], 'model key'));
  if (entry === undefined) throw new RpcRefusal(3, 'PUBLIC_ERROR_UNKNOWN_MODEL');
  const aspect = VIDEO_ASPECTS.find((a) => a.index === request[3]);
  if (aspect === undefined) throw new RpcRefusal(3, 'INVALID_ARGUMENT: aspect');
  const sceneId = asString(asArray(request[5], 'scene')[0], 'scene id');
  const scene = ctx.state.scenes.inProject(sceneId, projectId, ctx.account.email);
  if (scene === undefined) throw new RpcRefusal(5, 'NOT_FOUND: scene');
  return {
    projectId,
    scene,
    sourceId: asString(source[1], 'source id'),
    window: [start as number, end as number],
    prompt: promptOf(request[1]),
    entry,
    aspectIndex: aspect.index,
  };
}

/** The account's finished clip the source slot names: by its workflow id (§10), or by its media id (billed, never scheduled). */
function resolveSource(ctx: RpcContext, id: string): { byWorkflow: boolean; media: Media } {
  const mine = (m: Media): boolean => m.owner === ctx.account.email && m.kind === 'video';
  const byWorkflow = [...ctx.state.library.media.values()].find((m) => m.workflowId === id && mine(m));
  const byMedia = ctx.state.library.media.get(id);
  const media = byWorkflow ?? (byMedia !== undefined && mine(byMedia) ? byMedia : undefined);
  if (media === undefined) throw new RpcRefusal(3, 'PUBLIC_ERROR_REFERENCE_NOT_FOUND');
  if (videoStatus(media, ctx.now) !== 3) throw new RpcRefusal(3, 'INVALID_ARGUMENT: the source clip is not finished');
  return { byWorkflow: byWorkflow !== undefined, media };
}

/** The window must lie inside the source's frames (what Flow does with another window than the last second is [U]). */
function checkWindow(source: Media, [start, end]: readonly [number, number]): void {
  const frames = (source.video?.seconds ?? 8) * FPS;
  if (start < 1 || end > frames || start > end) throw new RpcRefusal(3, 'INVALID_ARGUMENT: frame window');
}

/** Accepted and billed, never scheduled: the job stays "submitted" (status 6) for ever (§10). */
function neverSchedule(media: Media): void {
  const job = media.video;
  if (job === undefined) return;
  job.runningAt = Number.MAX_SAFE_INTEGER;
  job.doneAt = Number.MAX_SAFE_INTEGER;
  job.urlAt = Number.MAX_SAFE_INTEGER;
}

/** The reply [U]: like the other video submits' (`records`), or only the new workflow id (`workflow-id`). */
function replyOf(ctx: RpcContext, made: Media): unknown {
  if (ctx.state.variants.extendReply === 'workflow-id') return [made.workflowId];
  return [null, 881, [workflowSummary(made)], [[videoRecord(ctx.state, made, ctx.now, { urls: true })]]];
}
