import type { Media } from '../state/library.js';
import type { SimState } from '../state/simState.js';
import { videoRecord, videoStatus } from '../wire/records.js';
import { asArray, RpcRefusal } from './rpcTypes.js';
import type { RpcContext, RpcResult } from './rpcTypes.js';

export const UPSAMPLED = '_upsampled';

/** The media (or the 1080p shadow of an upsample) that a polled id names. */
export function resolveVideo(state: SimState, id: string): Media | undefined {
  if (!id.endsWith(UPSAMPLED)) return state.library.media.get(id);
  const base = state.library.media.get(id.slice(0, -UPSAMPLED.length));
  const job = base?.video;
  if (base === undefined || job?.upsample === undefined) return undefined;
  const ups = job.upsample;
  return {
    ...base,
    id,
    width: base.aspectIndex === 1 ? 1080 : 1920,
    height: base.aspectIndex === 1 ? 1920 : 1080,
    video: {
      ...job,
      runningAt: ups.submittedAt,
      doneAt: ups.doneAt,
      urlAt: ups.doneAt,
      resolution: '1080p',
      finalStatus: 3,
      stuck: false,
      withoutUrl: false,
      swapped: false,
      sizeMismatch: false,
    },
  };
}

/** A failed job gives its credits back the first time its failure is observed. */
function settleRefund(state: SimState, media: Media, now: number): void {
  const job = media.video;
  const status = videoStatus(media, now);
  if (job === undefined || job.refunded || status === 2 || status === 6 || status === 3) return;
  job.refunded = true;
  const owner = state.account(media.owner);
  if (owner !== undefined) owner.credits += job.charged;
  state.onChange();
}

/**
 * jwpduf, the page's 5 s status poll (records carry status and size; the signed URLs only in the
 * `videoUrls: 'poll'` variant, flow-captures.md §4). Inner `[[mediaId…], projectId]`; an empty id list asks
 * for the whole project's recent clips. Reply `[null, 881, [[RECORD]…]]`.
 */
export function videoPoll(ctx: RpcContext): RpcResult {
  const { state } = ctx;
  const parts = asArray(ctx.inner, 'inner');
  const ids = asArray(parts[0] ?? [], 'ids').filter((x): x is string => typeof x === 'string');
  const projectId = typeof parts[1] === 'string' ? parts[1] : ctx.sourceProjectId;
  let clips: Media[];
  if (ids.length > 0) {
    clips = ids
      .map((id) => resolveVideo(state, id))
      .filter((m): m is Media => m !== undefined && m.owner === ctx.account.email);
  } else {
    clips = state.library
      .mediaOfProject(projectId ?? '')
      .filter((m) => m.kind === 'video' && m.owner === ctx.account.email && ctx.now - m.createdAt < 15 * 60_000);
  }
  for (const m of clips) settleRefund(state, m, ctx.now);
  if (state.failures.peek(ctx.account.email, 'poll_other_clip_first') !== null) {
    const named = new Set(clips.map((c) => c.id));
    const other = state.library.mediaOfProject(projectId ?? '').find((m) => m.kind === 'video' && !named.has(m.id));
    clips = [other ?? phantomClip(state, projectId ?? '', ctx.account.email, ctx.now), ...clips];
  }
  return {
    items: [
      {
        rpcId: ctx.rpcId,
        payload: [
          null,
          881,
          clips.map((m) => [videoRecord(state, m, ctx.now, { urls: state.variants.videoUrls === 'poll' })]),
        ],
      },
    ],
    delayMs: state.ms('pollReply'),
  };
}

/** A finished clip of the same project that the page never asked about (not stored). */
function phantomClip(state: SimState, projectId: string, owner: string, now: number): Media {
  return {
    id: `${state.seed.length.toString(16).padStart(8, '0')}-0000-4000-8000-00000000beef`,
    workflowId: '00000000-0000-4000-8000-00000000f00d',
    projectId,
    owner,
    kind: 'video',
    name: 'Earlier clip',
    prompt: 'an earlier clip of this project',
    model: 'veo_3_1_t2v_lite',
    aspectIndex: 2,
    width: 1280,
    height: 720,
    seed: 1,
    createdAt: now - 600_000,
    token: 'CAEphantom',
    mimeType: 'video/mp4',
    hiddenForSearches: 0,
    video: {
      submittedAt: 0,
      runningAt: 0,
      doneAt: 0,
      urlAt: 0,
      seconds: 8,
      resolution: '720p',
      finalStatus: 3,
      stuck: false,
      withoutUrl: false,
      swapped: false,
      sizeMismatch: false,
      charged: 0,
      refunded: true,
    },
  };
}

/**
 * as29s, the result fetch. Inner `["<workflowId>"]`: the bare record once the signed URLs
 * exist (2–8 s after status 3), else the bare workflow id string. Inner `[null, projectId]`
 * (sent when the @ picker opens) lists the project's finished clips.
 */
export function resultFetch(ctx: RpcContext): RpcResult {
  const { state } = ctx;
  const parts = asArray(ctx.inner, 'inner');
  const delayMs = state.ms('pollReply');
  if (typeof parts[0] !== 'string') {
    const projectId = typeof parts[1] === 'string' ? parts[1] : (ctx.sourceProjectId ?? '');
    const done = state.library
      .mediaOfProject(projectId)
      .filter((m) => m.kind === 'video' && m.owner === ctx.account.email);
    return {
      items: [{ rpcId: ctx.rpcId, payload: done.map((m) => videoRecord(state, m, ctx.now, { urls: true })) }],
      delayMs,
    };
  }
  const workflowId = parts[0];
  // The 1080p shadow is fetched by its `<mediaId>_upsampled` id ([U]: the upscale's result fetch was not captured).
  const media = workflowId.endsWith(UPSAMPLED)
    ? resolveVideo(state, workflowId)
    : [...state.library.media.values()].find((m) => m.workflowId === workflowId && m.owner === ctx.account.email);
  if (media === undefined || media.owner !== ctx.account.email) throw new RpcRefusal(5, 'NOT_FOUND');
  settleRefund(state, media, ctx.now);
  const status = videoStatus(media, ctx.now);
  const running = status === 6 || status === 2;
  return {
    items: [{ rpcId: ctx.rpcId, payload: running ? workflowId : videoRecord(state, media, ctx.now, { urls: true }) }],
    delayMs,
  };
}
