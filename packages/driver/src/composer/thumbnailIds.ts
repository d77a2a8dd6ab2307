import type { OpContext } from '../session/opContext.js';
import { isUuid } from '../wire/uuid.js';
import { ASB_TOKEN } from './anchors.js';
import { SEARCH_RPC } from './searchReply.js';

/**
 * The `/asb/<token>` → media id pairs an asset search reply (`UpteDb`) states. A hit's row pairs
 * its id with its thumbnail in the simulator's reading, but the row layout was never captured
 * (flow-captures §9, [U]): so a pair counts only where one array holds exactly one Flow id (a UUID)
 * and exactly one `/asb/` thumbnail, wherever it sits in the reply (lists or objects). Any other
 * shape says nothing.
 */
export function searchReplyPairs(payload: unknown): Array<readonly [token: string, mediaId: string]> {
  const pairs: Array<readonly [string, string]> = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 6 || value === null || typeof value !== 'object') return;
    if (!Array.isArray(value)) {
      for (const v of Object.values(value)) visit(v, depth + 1);
      return;
    }
    const ids = value.filter(isUuid);
    const tokens = value.flatMap((v) => (typeof v === 'string' ? (ASB_TOKEN.exec(v)?.slice(1, 2) ?? []) : []));
    if (ids.length === 1 && tokens.length === 1) pairs.push([tokens[0] as string, ids[0] as string]);
    for (const v of value) visit(v, depth + 1);
  };
  visit(payload, 0);
  return pairs;
}

/**
 * The token of `mediaId`'s thumbnail as the page's own asset searches stated it (searchReplyPairs
 * over every `UpteDb` reply the page received), or undefined: when no reply paired it, or replies
 * disagree (two tokens for the id, or the token paired with another id too), nothing is assumed.
 */
export function searchedToken(ctx: OpContext, mediaId: string): string | undefined {
  const tokens = new Set<string>();
  const all: Array<readonly [string, string]> = [];
  for (const response of ctx.tap.responses) {
    if (!response.rpcIds.includes(SEARCH_RPC)) continue;
    for (const item of response.envelope?.items ?? [])
      if (item.rpcId === SEARCH_RPC) all.push(...searchReplyPairs(item.payload));
  }
  for (const [token, id] of all) if (id === mediaId) tokens.add(token);
  if (tokens.size !== 1) return undefined;
  const [token] = tokens;
  return all.every(([t, id]) => t !== token || id === mediaId) ? token : undefined;
}

/**
 * The `/asb/<token>` of the thumbnail that shows `mediaId`, as far as this page can tell: its grid
 * tile's, when the tile was rendered at the page's load (flow-wire §4: the same token as the
 * pickers' options; a tile the page drew from a reply since carries the signed CDN URL instead),
 * else the page's own asset searches' (searchedToken). Undefined when neither says.
 */
export async function thumbnailToken(ctx: OpContext, mediaId: string): Promise<string | undefined> {
  const tile = ctx.page.locator(`img[data-media-id="${mediaId.replace(/["\\]/g, '')}"]`).first();
  const src =
    (await tile.count().catch(() => 0)) === 0
      ? null
      : await tile.getAttribute('src', { timeout: 500 }).catch(() => null);
  const fromTile = src === null ? undefined : ASB_TOKEN.exec(src)?.[1];
  return fromTile ?? searchedToken(ctx, mediaId);
}

/**
 * Raised where a page kept from the last run (ctx.pageKept) cannot tell an asset attached in place
 * from others of its name (its thumbnail token unknown, two or more options of that name): a fresh
 * load can (its grid tiles carry `/asb/` tokens), so the run loads the page again and binds once
 * more (prepare.ts `bindOnFreshPageWhenUnsure`). Never a user-facing error.
 */
export class FreshPageNeeded extends Error {
  constructor(what: string, why = 'cannot tell it apart from others of its name') {
    super(`the kept page ${why}: ${what}`);
    this.name = 'FreshPageNeeded';
  }
}
