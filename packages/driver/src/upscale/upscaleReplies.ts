import { WireFormatError } from '@gflow/errors';
import { sniffImage } from '@gflow/flow-facts';

/**
 * SPrCad, image upscale (flow-wire §5): `[["metadata"], "<base64 JPEG>"]`, synchronous. The
 * image is the string slot that decodes to image bytes (found by shape: slot [1] first).
 */
export function parseImageUpscaleReply(payload: unknown): {
  bytes: Buffer;
  extension: '.png' | '.jpg' | '.webp' | '.gif';
} {
  if (!Array.isArray(payload)) throw new WireFormatError("Flow's image upscale reply (SPrCad) is not a list.");
  const candidates = [payload[1], ...payload.filter((v, i) => i !== 1)].filter(
    (v): v is string => typeof v === 'string' && v.length > 16,
  );
  for (const text of candidates) {
    if (!/^[A-Za-z0-9+/=_-\s]+$/.test(text)) continue;
    const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    const extension = sniffImage(bytes);
    if (extension !== null) return { bytes, extension };
  }
  throw new WireFormatError("Flow's image upscale reply (SPrCad) holds no base64 image.");
}

/** p0UkFb, video upscale submit (flow-wire §5): the job id `"<media_id>_upsampled"` the page then polls. */
export function parseVideoUpscaleReply(payload: unknown, mediaId: string): string {
  const found = findString(payload, (s) => s.startsWith(mediaId) && s !== mediaId);
  if (found !== null) return found;
  throw new WireFormatError("Flow's video upscale reply (p0UkFb) names no upsampled job for that media.");
}

function findString(value: unknown, test: (s: string) => boolean, depth = 0): string | null {
  if (typeof value === 'string') return test(value) ? value : null;
  if (!Array.isArray(value) || depth > 6) return null;
  for (const v of value) {
    const hit = findString(v, test, depth + 1);
    if (hit !== null) return hit;
  }
  return null;
}

/** An upsampled clip's state in a `jwpduf` reply: the record whose slot [2] is the job id. */
export interface UpsampledState {
  readonly status: number | null;
  readonly videoUrl: string | null;
  readonly byteSize: number | null;
}

/**
 * Finds the record `[workflowId, projectId, "<id>_upsampled", …, DETAILS, null, MEDIA_INFO]` by
 * shape: status DETAILS[8][0], size DETAILS[13], mp4 URL MEDIA_INFO[0][8] (flow-wire §3a).
 */
export function findUpsampledState(payload: unknown, jobId: string, depth = 0): UpsampledState | null {
  if (!Array.isArray(payload) || depth > 6) return null;
  if (payload[2] === jobId && Array.isArray(payload[5])) {
    const details = payload[5] as unknown[];
    const info = Array.isArray(payload[7]) && Array.isArray(payload[7][0]) ? (payload[7][0] as unknown[]) : [];
    const statusSlot = details[8];
    const status = Array.isArray(statusSlot) && typeof statusSlot[0] === 'number' ? statusSlot[0] : null;
    return {
      status,
      videoUrl: typeof info[8] === 'string' && info[8] !== '' ? info[8] : null,
      byteSize: typeof details[13] === 'number' ? details[13] : null,
    };
  }
  for (const v of payload) {
    const hit = findUpsampledState(v, jobId, depth + 1);
    if (hit !== null) return hit;
  }
  return null;
}
