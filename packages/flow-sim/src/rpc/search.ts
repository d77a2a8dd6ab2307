import { imageReady } from '../wire/records.js';
import { asArray } from './rpcTypes.js';
import type { RpcContext, RpcResult } from './rpcTypes.js';

/**
 * UpteDb, the server-side asset search behind the Frames picker and `@` mentions.
 * Inner (sim's reading [U]): `["<query>", "<tab>", projectId]`, tab one of
 * ALL, IMAGES, VIDEOS, CHARACTERS, UPLOADS. Reply `[[[id, name, kind, "/asb/<token>", [w, h], refType]…]]`
 * with refType "media" or "entity" (variant `searchThumbs: 'parallel'`: `[[[id, name, kind, null, [w, h],
 * refType]…], ["/asb/<token>"…]]`). Characters and media share one unranked list.
 */
export function search(ctx: RpcContext): RpcResult {
  const { state, account } = ctx;
  const parts = asArray(ctx.inner, 'inner');
  const query = (typeof parts[0] === 'string' ? parts[0] : '').trim().toLowerCase();
  const tab = typeof parts[1] === 'string' ? parts[1] : 'ALL';
  const projectId = typeof parts[2] === 'string' ? parts[2] : ctx.sourceProjectId;
  const rows: unknown[][] = [];
  for (const m of state.library.assetsOf(account.email)) {
    if (m.hiddenForSearches > 0) {
      m.hiddenForSearches -= 1;
      continue;
    }
    if (m.kind === 'video' && m.video?.finalStatus !== 3) continue;
    if (!imageReady(m, ctx.now)) continue;
    const kind = m.kind === 'video' ? 'VIDEO' : m.kind === 'upload' ? 'UPLOAD' : 'IMAGE';
    if (tab === 'IMAGES' && kind === 'VIDEO') continue;
    if (tab === 'VIDEOS' && kind !== 'VIDEO') continue;
    if (tab === 'UPLOADS' && kind !== 'UPLOAD') continue;
    if (tab === 'CHARACTERS') continue;
    if (query !== '' && !m.name.toLowerCase().includes(query)) continue;
    rows.push([m.id, m.name, kind, `/asb/${m.token}`, [m.width, m.height], 'media']);
  }
  const project = projectId === null ? undefined : state.library.projects.get(projectId);
  if (project !== undefined && project.owner === account.email && (tab === 'ALL' || tab === 'CHARACTERS')) {
    for (const c of project.characters) {
      if (query !== '' && !c.displayName.toLowerCase().includes(query)) continue;
      const thumb = state.library.media.get(c.thumbnailMediaId);
      rows.splice(Math.min(rows.length, 1), 0, [
        c.entityId,
        c.displayName,
        'CHARACTER',
        `/asb/${thumb?.token ?? ''}`,
        [512, 512],
        'entity',
      ]);
    }
  }
  if (state.variants.searchOrder === 'shuffled') shuffle(rows, nextReply(state));
  // `parallel` [U]: no row pairs an id with its thumbnail; the page zips the two lists.
  const payload =
    state.variants.searchThumbs === 'parallel'
      ? [rows.map((r) => [...r.slice(0, 3), null, ...r.slice(4)]), rows.map((r) => r[3])]
      : [rows];
  return { items: [{ rpcId: ctx.rpcId, payload }], delayMs: state.ms('searchReply') };
}

const replies = new WeakMap<object, number>();

/** The how-manieth search reply of this simulator (seeds the `shuffled` order, so a run is repeatable). */
function nextReply(state: object): number {
  const n = (replies.get(state) ?? 0) + 1;
  replies.set(state, n);
  return n;
}

/** A Fisher–Yates shuffle driven by a small LCG seeded with `seed`. */
function shuffle(rows: unknown[], seed: number): void {
  let x = (seed * 2_654_435_761) >>> 0;
  for (let i = rows.length - 1; i > 0; i -= 1) {
    x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
    const j = x % (i + 1);
    [rows[i], rows[j]] = [rows[j], rows[i]];
  }
}
