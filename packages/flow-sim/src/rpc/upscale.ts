import { imageFor } from '../media/catalogMedia.js';
import { UPSAMPLED } from './videoPoll.js';
import { asArray, asString, RpcRefusal } from './rpcTypes.js';
import type { RpcContext, RpcResult } from './rpcTypes.js';

/**
 * SPrCad, image upscale (synchronous). Inner `[mediaId, resolution, clientContext]` with
 * resolution 1 = 2K (exactly 2×), 2 = 4K (4×, Ultra only). Reply `[["metadata"], "<base64 JPEG>"]`; 0 credits.
 */
export function imageUpscale(ctx: RpcContext): RpcResult {
  const parts = asArray(ctx.inner, 'inner');
  const media = ctx.state.library.media.get(asString(parts[0], 'mediaId'));
  if (media === undefined || media.owner !== ctx.account.email || media.kind === 'video')
    throw new RpcRefusal(5, 'NOT_FOUND');
  const res = parts[1] === 2 ? 2 : 1;
  if (res === 2 && ctx.account.tier !== 'ultra') throw new RpcRefusal(7, 'PUBLIC_ERROR_UPSCALE_NOT_AVAILABLE');
  const { bytes } = imageFor(ctx.state, { ...media, kind: 'image' }, res === 2 ? 4 : 2);
  return {
    items: [{ rpcId: ctx.rpcId, payload: [['metadata'], bytes.toString('base64')] }],
    delayMs: ctx.state.ms('imageUpscaleReply'),
  };
}

/**
 * p0UkFb, video 1080p upscale submit. Inner `[mediaId, clientContext]`. Reply `["<mediaId>_upsampled"]`;
 * the page then polls jwpduf with that id.
 */
export function videoUpscale(ctx: RpcContext): RpcResult {
  const parts = asArray(ctx.inner, 'inner');
  const media = ctx.state.library.media.get(asString(parts[0], 'mediaId'));
  const job = media?.video;
  if (media === undefined || job === undefined || media.owner !== ctx.account.email || job.finalStatus !== 3)
    throw new RpcRefusal(5, 'NOT_FOUND');
  const submittedAt = ctx.now;
  job.upsample = {
    mediaId: `${media.id}${UPSAMPLED}`,
    submittedAt,
    doneAt: submittedAt + ctx.state.ms('videoUpscaleDone'),
  };
  return { items: [{ rpcId: ctx.rpcId, payload: [job.upsample.mediaId] }], delayMs: ctx.state.ms('videoUpscaleReply') };
}
