import type { Media } from '../state/library.js';
import { describeKey, videoCost, VIDEO_ASPECTS } from '../wire/models.js';
import { videoRecord, workflowSummary } from '../wire/records.js';
import { videoSize } from '../media/catalogMedia.js';
import { autoTitle } from './imageSubmit.js';
import { asArray, asString, checkReference, projectOfContext, promptOf, RpcRefusal } from './rpcTypes.js';
import type { RpcContext, RpcResult } from './rpcTypes.js';

/**
 * YhhmEf (t2v), eb1hJf (i2v), nprQif (interpolation), MZZa6b (r2v). Inner:
 * `[[REQUEST…], [null, 22, null, null, null, projectId, …, [recaptcha, 1]], [uuid, 1]]` with
 * REQUEST = `[promptStruct, modelKey, aspectIdx, null, [null×4, uuid, uuid], [startId, endId]|null,
 * [[null, 1, refId, "media"|"entity"], …]|null, resolution]` (slots 5–7 are the sim's reading [U]).
 */
export function videoSubmit(ctx: RpcContext): RpcResult {
  const { state, account } = ctx;
  const parts = asArray(ctx.inner, 'inner');
  const requests = asArray(parts[0], 'requests');
  const projectId = projectOfContext(ctx, parts[1]);
  if (requests.length < 1 || requests.length > 4) throw new RpcRefusal(3, 'INVALID_ARGUMENT: count');
  const first = asArray(requests[0], 'request');
  const key = asString(first[1], 'model key');
  const info = describeKey(key);
  if (info === null) throw new RpcRefusal(3, 'PUBLIC_ERROR_UNKNOWN_MODEL');
  const aspect = VIDEO_ASPECTS.find((a) => a.index === first[2]);
  if (aspect === undefined) throw new RpcRefusal(3, 'INVALID_ARGUMENT: aspect');
  const resolution = first[7] === '360p' ? '360p' : '720p';
  const frames = Array.isArray(first[5]) ? (first[5] as unknown[]) : [];
  const refs = Array.isArray(first[6]) ? (first[6] as unknown[]) : [];
  const frameIds = frames.filter((f): f is string => typeof f === 'string');
  if (info.mode === 'i2v' && typeof frames[0] !== 'string') throw new RpcRefusal(3, 'INVALID_ARGUMENT: start frame');
  if (info.mode === 'interp' && frameIds.length !== 2)
    throw new RpcRefusal(3, 'INVALID_ARGUMENT: interpolation needs start and end frames');
  if (info.mode === 'r2v' && refs.length === 0) throw new RpcRefusal(3, 'INVALID_ARGUMENT: references');
  if (info.mode === 'r2v' && refs.length > info.model.refCap)
    throw new RpcRefusal(3, 'INVALID_ARGUMENT: too many references');
  for (const id of frameIds) checkReference(ctx, id, 'media');
  for (const ref of refs) {
    const r = asArray(ref, 'reference');
    checkReference(ctx, asString(r[2], 'reference id'), r[3] === 'entity' ? 'entity' : 'media');
  }
  const cost = videoCost(info.model, info.seconds, requests.length, resolution);
  if (account.credits < cost) throw new RpcRefusal(8, 'PUBLIC_ERROR_INSUFFICIENT_CREDITS');
  account.credits -= cost;
  // The start frame is what an i2v or interpolation clip shows (media/catalogMedia.ts mp4For).
  const startFrameId =
    (info.mode === 'i2v' || info.mode === 'interp') && typeof frames[0] === 'string' ? frames[0] : undefined;
  const made: Media[] = [];
  for (const raw of requests) {
    const request = asArray(raw, 'request');
    const prompt = promptOf(request[0]);
    made.push(
      createJob(ctx, {
        projectId,
        prompt,
        key,
        aspectIndex: aspect.index,
        seconds: info.seconds,
        resolution,
        charged: Math.ceil(cost / requests.length),
        startFrameId,
      }),
    );
  }
  state.onChange();
  const delayMs = state.ms('videoSubmitReply');
  if (ctx.rpcId === 'MZZa6b' && state.failures.take(account.email, 'mzza6b_null_status', ctx.rpcId) !== null) {
    return { items: [{ rpcId: ctx.rpcId, payload: null, error: [5] }], delayMs, charged: cost };
  }
  const payload = [
    null,
    881,
    made.map((m) => workflowSummary(m)),
    made.map((m) => [videoRecord(state, m, ctx.now, { urls: true })]),
  ];
  return { items: [{ rpcId: ctx.rpcId, payload }], delayMs, charged: cost };
}

/** One clip of a video submit (or of an extend, rpc/extend.ts), as the request asked for it. */
export interface JobRequest {
  readonly projectId: string;
  readonly prompt: string;
  readonly key: string;
  readonly aspectIndex: number;
  readonly seconds: number;
  readonly resolution: string;
  readonly charged: number;
  readonly startFrameId: string | undefined;
  /** An extension: the clip it continues and the source frame it starts at. */
  readonly extendsFrom?: { mediaId: string; fromFrame: number };
}

/** Makes one clip's job (the failure switches of this rpc taken as it is made), in the library. */
export function createJob(ctx: RpcContext, job: JobRequest): Media {
  const { projectId, prompt, key, aspectIndex, seconds, resolution, charged, startFrameId, extendsFrom } = job;
  const { state, account } = ctx;
  const email = account.email;
  const submittedAt = ctx.now + state.ms('videoSubmitReply');
  const doneAt = submittedAt + state.ms('videoDoneAfter');
  const unknown = state.failures.take(email, 'unknown_status', ctx.rpcId);
  const policy = state.failures.take(email, 'content_policy', ctx.rpcId);
  const finalStatus = policy !== null ? 7 : unknown !== null ? (unknown.status ?? 99) : 3;
  const { width, height } = videoSize(resolution, aspectIndex);
  const media = state.library.addMedia({
    projectId,
    owner: email,
    kind: 'video',
    name: autoTitle(prompt),
    prompt,
    model: key,
    aspectIndex,
    width,
    height,
    seed: state.random.int(1, 999_999),
    createdAt: ctx.now,
    mimeType: 'video/mp4',
    hiddenForSearches: 0,
    video: {
      submittedAt,
      runningAt: submittedAt + state.ms('videoRunningAfter'),
      doneAt,
      // The signed URLs exist 2–8 s after status 3 (flow-captures.md §4), scaled unless urlDelay is 'measured'.
      urlAt: doneAt + state.urlGap(),
      seconds,
      resolution,
      ...(startFrameId === undefined ? {} : { startFrameId }),
      ...(extendsFrom === undefined ? {} : { extendsFrom }),
      finalStatus,
      stuck: state.failures.take(email, 'stuck_generation', ctx.rpcId) !== null,
      withoutUrl: state.failures.take(email, 'done_without_url', ctx.rpcId) !== null,
      swapped: state.failures.take(email, 'swapped_urls', ctx.rpcId) !== null,
      sizeMismatch: state.failures.take(email, 'size_mismatch', ctx.rpcId) !== null,
      charged,
      refunded: false,
    },
  });
  return media;
}
