import { asArray, asString, RpcRefusal } from './rpcTypes.js';
import type { RpcContext, RpcResult } from './rpcTypes.js';

/** jHPbke, create project. Inner `["<title>"]` → `[projectId, [title]]`. */
export function createProject(ctx: RpcContext): RpcResult {
  const parts = asArray(ctx.inner, 'inner');
  const title = typeof parts[0] === 'string' && parts[0].trim() !== '' ? parts[0].trim() : defaultTitle(ctx.now);
  const project = ctx.state.library.createProject(ctx.account.email, title, ctx.now);
  ctx.state.onChange();
  // [U] (flow-captures.md §9): the reply layout was never captured; `wrapped` is the other variant.
  const payload =
    ctx.state.variants.projectReply === 'wrapped' ? [null, [project.id, project.title]] : [project.id, [project.title]];
  return { items: [{ rpcId: ctx.rpcId, payload }], delayMs: ctx.state.ms('projectReply') };
}

/** o8DA4, rename project. Inner `[projectId, "<title>"]` → `[title]`. */
export function renameProject(ctx: RpcContext): RpcResult {
  const parts = asArray(ctx.inner, 'inner');
  const project = ctx.state.library.projects.get(asString(parts[0], 'projectId'));
  if (project === undefined || project.owner !== ctx.account.email)
    throw new RpcRefusal(7, 'PUBLIC_ERROR_PROJECT_ACCESS_DENIED');
  const title = asString(parts[1], 'title').trim();
  if (title === '') throw new RpcRefusal(3, 'INVALID_ARGUMENT: title');
  project.title = title;
  ctx.state.onChange();
  const payload = ctx.state.variants.projectReply === 'wrapped' ? [[project.title, project.id]] : [project.title];
  return { items: [{ rpcId: ctx.rpcId, payload }], delayMs: ctx.state.ms('projectReply') };
}

/** WuwhI (prompt history save) and DTaVef (idle noise) both answer `[]`. */
export function emptyReply(ctx: RpcContext): RpcResult {
  return { items: [{ rpcId: ctx.rpcId, payload: [] }], delayMs: ctx.state.ms('smallReply') };
}

function defaultTitle(now: number): string {
  const d = new Date(now);
  return `Untitled project ${d.toISOString().slice(0, 10)}`;
}
