import { readImageSize } from '../media/imageSize.js';
import { asArray, asString, RpcRefusal } from './rpcTypes.js';
import type { RpcContext, RpcResult } from './rpcTypes.js';

const MAX_BYTES = 20 * 1024 * 1024;

function sniff(bytes: Buffer): string | null {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.toString('ascii', 0, 4) === 'RIFF' && bytes.toString('ascii', 8, 12) === 'WEBP') return 'image/webp';
  if (bytes.toString('ascii', 0, 4) === 'GIF8') return 'image/gif';
  return null;
}

/**
 * maseQ, the image upload. Inner (sim's reading [U]): `[[null, "<base64>", "<mime>"], "<fileName>", projectId]`.
 * Reply `[mediaId, projectId, [fileName, [w, h]]]`; the first UUID is the new media id.
 * A tiny image (under 2×2 px) gets 200 with no UUID at all (`[null, null, [fileName]]`), as Flow declined a 1×1 PNG.
 */
export function upload(ctx: RpcContext): RpcResult {
  const { state, account } = ctx;
  const parts = asArray(ctx.inner, 'inner');
  const file = asArray(parts[0], 'file');
  const bytes = Buffer.from(asString(file[1], 'bytes'), 'base64');
  const fileName = asString(parts[1], 'file name');
  const projectId = typeof parts[2] === 'string' ? parts[2] : ctx.sourceProjectId;
  const delayMs = state.ms('uploadReply');
  if (bytes.length > MAX_BYTES) throw new RpcRefusal(3, 'PUBLIC_ERROR_FILE_TOO_LARGE');
  const mimeType = sniff(bytes);
  if (mimeType === null) throw new RpcRefusal(3, 'PUBLIC_ERROR_UNSUPPORTED_FILE');
  const size = readImageSize(bytes) ?? { width: 1024, height: 1024 };
  // A stall before the submit (a test switch, not a Flow fact): the upload is never answered.
  if (state.failures.take(account.email, 'stuck_upload', ctx.rpcId) !== null)
    return { items: [], delayMs: 0, hang: true, charged: 0 };
  if (state.failures.take(account.email, 'maseq_no_id', ctx.rpcId) !== null || size.width < 2 || size.height < 2) {
    return { items: [{ rpcId: ctx.rpcId, payload: [null, null, [fileName]] }], delayMs };
  }
  const late = state.failures.peek(account.email, 'late_index');
  const media = state.library.addMedia({
    projectId: projectId ?? '',
    owner: account.email,
    kind: 'upload',
    name: fileName,
    prompt: '',
    model: 'upload',
    aspectIndex: size.width > size.height ? 2 : size.width < size.height ? 1 : 3,
    width: size.width,
    height: size.height,
    seed: 0,
    createdAt: ctx.now,
    bytes,
    mimeType,
    hiddenForSearches: late === null ? 0 : (late.searches ?? 2),
  });
  state.onChange();
  if (state.failures.take(account.email, 'maseq_project_id_first', ctx.rpcId) !== null) {
    // The confusion risk the original guards against (flow-captures.md §9): the project id comes first.
    return {
      items: [{ rpcId: ctx.rpcId, payload: [projectId, media.id, [fileName, [size.width, size.height]]] }],
      delayMs,
    };
  }
  return {
    items: [{ rpcId: ctx.rpcId, payload: [media.id, projectId, [fileName, [size.width, size.height]]] }],
    delayMs,
  };
}
