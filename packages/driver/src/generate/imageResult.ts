import { WireFormatError } from '@gflow/errors';
import type { OpContext } from '../session/opContext.js';
import { type ImageRecord, findImageRecords } from '../wire/imageRecords.js';
import { awaitReply } from './submitWatcher.js';
import type { GuardedSubmit } from './submitWatcher.js';
import type { GeneratedItem } from './types.js';

/**
 * An image run's result is the `ogiZ0b` reply itself. A reply without a record gflow can read is
 * not a content refusal: none of that shape was ever captured, and a flaky real run answered 813
 * bytes without a record (flow-captures.md §6). Policy refusals come as refusal frames.
 */
export async function watchImageReply(
  ctx: OpContext,
  seen: GuardedSubmit,
  run: { readonly projectId: string; readonly timeoutMs: number },
): Promise<ImageRecord[]> {
  ctx.report({ phase: 'submitted', projectId: run.projectId, submitRpc: seen.call.rpcId });
  ctx.report({ phase: 'generating', projectId: run.projectId });
  const records = findImageRecords(await awaitReply(ctx, seen, run.timeoutMs));
  if (records.length > 0) return records;
  throw new WireFormatError(
    `Flow answered the image submit (${seen.call.rpcId}) with no image record gflow can read.`,
    {
      retryable: false,
      remediationHint: `The image may still appear in the Flow project ${run.projectId}: look there before retrying (a retry may make another one). If it keeps happening, file an issue with the incident bundle.`,
      extensions: { ...ctx.spendExtensions(), flow_rpc: seen.call.rpcId, flow_project_id: run.projectId },
    },
  );
}

/** Each record as a generated item; a record without its URL is a wire-format error (it was billed). */
export function imageItems(
  ctx: OpContext,
  records: readonly ImageRecord[],
  run: { readonly prompt: string; readonly token: string },
): GeneratedItem[] {
  return records.map((r) => {
    if (r.url === null)
      throw new WireFormatError(`The image record ${r.mediaId} carries no URL.`, {
        retryable: false,
        extensions: { ...ctx.spendExtensions(), flow_media_id: r.mediaId },
      });
    return {
      mediaId: r.mediaId,
      workflowId: r.workflowId,
      prompt: r.prompt ?? run.prompt,
      modelKey: run.token,
      url: r.url,
      ...(r.title === null || r.title === '' ? {} : { displayName: r.title }),
      ...(r.seed === null ? {} : { seed: r.seed }),
      ...(r.width === null ? {} : { width: r.width }),
      ...(r.height === null ? {} : { height: r.height }),
    };
  });
}
