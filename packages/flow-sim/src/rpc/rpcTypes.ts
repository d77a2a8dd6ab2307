import type { Account } from '../state/accounts.js';
import type { SimState } from '../state/simState.js';
import type { WireItem } from '../wire/envelope.js';

export interface RpcContext {
  state: SimState;
  account: Account;
  rpcId: string;
  inner: unknown;
  /** The project of `source-path=/project/<id>`, when there is one. */
  sourceProjectId: string | null;
  now: number;
}

export interface RpcResult {
  items: WireItem[];
  /** Server-side time before the reply is sent (already scaled). */
  delayMs: number;
  charged?: number;
  /** Never answer (stuck generation); the request is held until the client gives up. */
  hang?: boolean;
  /** Answer HTTP 200 with a body no batchexecute reader can parse (the job was made and billed). */
  garbled?: boolean;
}

export type RpcHandler = (ctx: RpcContext) => RpcResult;

export class RpcRefusal extends Error {
  constructor(
    readonly code: number,
    readonly reason?: string,
  ) {
    super(`rpc refused with ${code}${reason === undefined ? '' : ` ${reason}`}`);
  }
}

export function asArray(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new RpcRefusal(3, `INVALID_ARGUMENT: ${what}`);
  return value as unknown[];
}

export function asString(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new RpcRefusal(3, `INVALID_ARGUMENT: ${what}`);
  return value;
}

/** The prompt inside `[null, null, [[[prompt]]]]`. */
export function promptOf(struct: unknown): string {
  const s = asArray(struct, 'prompt struct');
  const inner = asArray(asArray(asArray(s[2], 'prompt')[0], 'prompt')[0], 'prompt');
  return asString(inner[0], 'prompt text');
}

/** The project id in the client-context part `[null, 22, null, null, null, projectId, …]`. */
export function projectOfContext(ctx: RpcContext, part: unknown): string {
  const projectId = asString(asArray(part, 'client context')[5], 'projectId');
  const project = ctx.state.library.projects.get(projectId);
  if (project === undefined || project.owner !== ctx.account.email)
    throw new RpcRefusal(7, 'PUBLIC_ERROR_PROJECT_ACCESS_DENIED');
  return projectId;
}

/**
 * A reference in a submit body must be the account's own: a media id in its library, or the
 * entity id of a saved character in one of its projects (refused as REFERENCE_NOT_FOUND otherwise).
 */
export function checkReference(ctx: RpcContext, id: string, type: 'media' | 'entity'): void {
  const { library } = ctx.state;
  if (type === 'entity') {
    const character = library.findCharacter(id);
    if (character === undefined || library.projects.get(character.projectId)?.owner !== ctx.account.email)
      throw new RpcRefusal(3, 'PUBLIC_ERROR_REFERENCE_NOT_FOUND');
    return;
  }
  const media = library.media.get(id);
  if (media === undefined || media.owner !== ctx.account.email)
    throw new RpcRefusal(3, 'PUBLIC_ERROR_REFERENCE_NOT_FOUND');
}
