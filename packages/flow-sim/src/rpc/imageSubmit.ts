import { IMAGE_ASPECTS, imageModelByToken } from '../wire/models.js';
import { imageMedia, imageWorkflow } from '../wire/records.js';
import { asArray, asString, checkReference, projectOfContext, promptOf, RpcRefusal } from './rpcTypes.js';
import type { RpcContext, RpcResult } from './rpcTypes.js';

/**
 * ogiZ0b, the synchronous image submit. Inner (sim's reading, shape [U]):
 * `[[promptStruct, MODEL_TOKEN, aspectIdx, count, [[null, 1, refId, "media"|"entity"], …]], clientContext, [uuid, 1]]`
 * (a saved character is an entity reference, as in the r2v body).
 * Reply: `[[[MEDIA]…], [[WORKFLOW]…]]` after ~19.7 s (scaled).
 */
export function imageSubmit(ctx: RpcContext): RpcResult {
  const parts = asArray(ctx.inner, 'inner');
  const request = asArray(parts[0], 'request');
  const projectId = projectOfContext(ctx, parts[1]);
  const prompt = promptOf(request[0]);
  const token = asString(request[1], 'model');
  const model = imageModelByToken(token);
  if (model === undefined) throw new RpcRefusal(3, 'PUBLIC_ERROR_INVALID_MODEL');
  const aspect = IMAGE_ASPECTS.find((a) => a.index === request[2]);
  if (aspect === undefined) throw new RpcRefusal(3, 'PUBLIC_ERROR_INVALID_ASPECT_RATIO');
  const count = typeof request[3] === 'number' ? Math.min(4, Math.max(1, request[3])) : 1;
  const refs = (Array.isArray(request[4]) ? request[4] : []).map((raw) => {
    const r = asArray(raw, 'ref');
    return { id: asString(r[2], 'ref id'), type: r[3] === 'entity' ? ('entity' as const) : ('media' as const) };
  });
  for (const ref of refs) checkReference(ctx, ref.id, ref.type);
  const refIds = refs.map((r) => r.id);
  const cost = model.cost * count;
  if (ctx.account.credits < cost) throw new RpcRefusal(8, 'PUBLIC_ERROR_INSUFFICIENT_CREDITS');
  const { state } = ctx;
  if (state.failures.take(ctx.account.email, 'stuck_generation', ctx.rpcId) !== null) {
    return { items: [], delayMs: 0, hang: true, charged: 0 };
  }
  if (state.failures.take(ctx.account.email, 'content_policy', ctx.rpcId) !== null) {
    // [U]: no ogiZ0b content refusal was captured (flow-captures.md §6); the sim says so in a refusal frame.
    throw new RpcRefusal(3, 'PUBLIC_ERROR_CONTENT_POLICY_VIOLATION');
  }
  if (state.failures.take(ctx.account.email, 'image_empty_reply', ctx.rpcId) !== null) {
    // A reply with no image record (a flaky real run answered 813 bytes without one, §6): not a refusal.
    return { items: [{ rpcId: ctx.rpcId, payload: [[], []] }], delayMs: state.ms('imageReply'), charged: 0 };
  }
  ctx.account.credits -= cost;
  // Made (and billed) as the submit arrives: a client that dies before the reply still has them.
  const delayMs = state.ms('imageReply');
  const made = [];
  for (let i = 0; i < count; i += 1) {
    made.push(
      state.library.addMedia({
        projectId,
        owner: ctx.account.email,
        kind: 'image',
        name: autoTitle(prompt),
        prompt,
        model: token,
        aspectIndex: aspect.index,
        width: aspect.width,
        height: aspect.height,
        seed: state.random.int(1, 999_999),
        createdAt: ctx.now + i,
        mimeType: 'image/jpeg',
        hiddenForSearches: 0,
        readyAt: ctx.now + delayMs,
      }),
    );
  }
  state.onChange();
  return {
    items: [
      {
        rpcId: ctx.rpcId,
        payload: imageReply(
          state,
          made.map((m) => imageMedia(state, m, refIds)),
          made.map((m) => imageWorkflow(m)),
        ),
      },
    ],
    delayMs,
    charged: cost,
  };
}

export function autoTitle(prompt: string): string {
  const words = prompt
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 5);
  const title = words.join(' ');
  return title.length === 0 ? 'Untitled' : title.charAt(0).toUpperCase() + title.slice(1);
}

/** The reply's layout [U] (flow-captures.md §9): flat `[[MEDIA…],[WORKFLOW…]]`, or the `wrapped` variant. */
function imageReply(state: RpcContext['state'], media: unknown[], workflows: unknown[]): unknown {
  return state.variants.imageReply === 'wrapped' ? [null, [media], [workflows], 1] : [media, workflows];
}
