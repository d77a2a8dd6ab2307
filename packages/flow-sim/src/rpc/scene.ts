import type { Media } from '../state/library.js';
import type { Scene } from '../state/scenes.js';
import type { SimState } from '../state/simState.js';
import { videoStatus } from '../wire/records.js';
import { RpcRefusal, asArray, asString } from './rpcTypes.js';
import type { RpcContext, RpcResult } from './rpcTypes.js';

/** The sim's own rpc id for scene edits: how Flow creates a scene or puts a clip on it was never captured [U]. */
export const SCENE_RPC = 'simScene';

/** A clip on a scene's timeline as the page gets it (boot data and the `simScene` reply). */
export interface SceneClip {
  readonly mediaId: string;
  readonly workflowId: string;
  readonly seconds: number;
  readonly aspectIndex: number;
  readonly token: string;
  readonly name: string;
  readonly status: number;
}

export function sceneClipsOf(state: SimState, scene: Scene, now: number): SceneClip[] {
  return scene.clipIds.flatMap((id) => {
    const m = state.library.media.get(id);
    return m === undefined ? [] : [clipOf(m, now)];
  });
}

function clipOf(m: Media, now: number): SceneClip {
  return {
    mediaId: m.id,
    workflowId: m.workflowId,
    seconds: m.video?.seconds ?? 8,
    aspectIndex: m.aspectIndex,
    token: m.token,
    name: m.name,
    status: videoStatus(m, now),
  };
}

/**
 * `simScene` [U, the sim's invention]: inner `[projectId, sceneId | null, [mediaId…]]` makes a scene
 * holding those clips (null) or puts them at the end of the scene's timeline; each must be a
 * finished clip of the project. Reply `[sceneId, [[mediaId, workflowId, seconds, aspectIdx,
 * token, name, status]…]]`.
 */
export function editScene(ctx: RpcContext): RpcResult {
  const parts = asArray(ctx.inner, 'inner');
  const projectId = asString(parts[0], 'projectId');
  if (ctx.state.library.projects.get(projectId)?.owner !== ctx.account.email)
    throw new RpcRefusal(7, 'PUBLIC_ERROR_PROJECT_ACCESS_DENIED');
  const ids = asArray(parts[2] ?? [], 'clips').map((id) => asString(id, 'clip id'));
  for (const id of ids) {
    const m = ctx.state.library.media.get(id);
    if (m?.kind !== 'video' || m.projectId !== projectId || videoStatus(m, ctx.now) !== 3)
      throw new RpcRefusal(3, 'PUBLIC_ERROR_REFERENCE_NOT_FOUND');
  }
  let scene: Scene | undefined;
  if (parts[1] === null || parts[1] === undefined) {
    scene = ctx.state.scenes.create({ projectId, owner: ctx.account.email, clipIds: ids, now: ctx.now });
  } else {
    scene = ctx.state.scenes.inProject(asString(parts[1], 'scene id'), projectId, ctx.account.email);
    if (scene === undefined) throw new RpcRefusal(5, 'NOT_FOUND: scene');
    ctx.state.scenes.append(scene.id, ids);
  }
  const clips = sceneClipsOf(ctx.state, scene, ctx.now).map((c) => [
    c.mediaId,
    c.workflowId,
    c.seconds,
    c.aspectIndex,
    c.token,
    c.name,
    c.status,
  ]);
  return { items: [{ rpcId: ctx.rpcId, payload: [scene.id, clips] }], delayMs: ctx.state.ms('projectReply') };
}
