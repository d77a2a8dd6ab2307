import { type BriefReference, type InstructionCard, type ProjectBrief, copyBrief, newCardId } from '../state/brief.js';
import type { Library, Project } from '../state/library.js';
import { RpcRefusal, asArray, asString, checkReference } from './rpcTypes.js';
import type { RpcContext, RpcResult } from './rpcTypes.js';

/**
 * The brief panel's save: **the simulator's invention** [U]. How flow.google.com stores the
 * Agent-mode brief was not captured (labs writes `PATCH /v1/projects/{pid}/agentInfo?updateMask=…`,
 * flow-wire §3b); the sim's page sends the whole card set through its batchexecute client under
 * this made-up rpc id, and re-renders from the reply.
 */
export const BRIEF_RPC = 'simBrief';

const MAX_CARDS = 50;
const MAX_TITLE = 200;
const MAX_TEXT = 10_000;

/** A card on the wire: `[id|null, title, text, enabled, [mediaId…], [entityId…]]`. */
export type WireCard = [string | null, string, string, boolean, string[], string[]];

export function cardToWire(card: InstructionCard): WireCard {
  return [card.id, card.title, card.text, card.enabled, [...card.imageMediaIds], [...card.characterIds]];
}

/** The references a brief names, for display (names and `/asb/` thumbnails); unknown ids are skipped. */
export function briefReferences(library: Library, project: Project, brief: ProjectBrief): BriefReference[] {
  const out = new Map<string, BriefReference>();
  for (const card of brief.cards) {
    for (const id of card.imageMediaIds) {
      const media = library.media.get(id);
      if (media !== undefined && !out.has(id))
        out.set(id, { id, type: 'media', name: media.name, thumb: `/asb/${media.token}` });
    }
    for (const id of card.characterIds) {
      const character = project.characters.find((c) => c.entityId === id) ?? library.findCharacter(id);
      if (character === undefined || out.has(id)) continue;
      const thumb = library.media.get(character.thumbnailMediaId);
      out.set(id, {
        id,
        type: 'entity',
        name: character.displayName,
        thumb: thumb === undefined ? null : `/asb/${thumb.token}`,
      });
    }
  }
  return [...out.values()];
}

/** The brief as the page gets it (boot data and the save reply): `[[enabled, [CARD…]], [[id, type, name, thumb]…]]`. */
export function briefPayload(library: Library, project: Project): unknown[] {
  return [
    [project.brief.enabled, project.brief.cards.map(cardToWire)],
    briefReferences(library, project, project.brief).map((r) => [r.id, r.type, r.name, r.thumb]),
  ];
}

function stringList(value: unknown, what: string): string[] {
  return asArray(value ?? [], what).map((v) => asString(v, what));
}

/**
 * `simBrief` [U, the sim's invention]. Inner `[projectId, [enabled, [CARD…]]]`, the whole card set
 * (a card without id is new). The server keeps the ids it knows, assigns new ones, checks each
 * reference is the account's (media) or a saved character (entity), and answers the stored brief
 * in the boot layout. Failure switch `brief_save_lossy`: the reply and the store lose the change
 * (new cards without their text, existing cards, removals and the master switch unchanged).
 */
export function saveBrief(ctx: RpcContext): RpcResult {
  const { state, account } = ctx;
  const parts = asArray(ctx.inner, 'inner');
  const project = state.library.projects.get(asString(parts[0], 'projectId'));
  if (project === undefined || project.owner !== account.email)
    throw new RpcRefusal(7, 'PUBLIC_ERROR_PROJECT_ACCESS_DENIED');
  const body = asArray(parts[1], 'brief');
  if (typeof body[0] !== 'boolean') throw new RpcRefusal(3, 'INVALID_ARGUMENT: enabled');
  const wanted = asArray(body[1], 'cards');
  if (wanted.length > MAX_CARDS) throw new RpcRefusal(3, 'INVALID_ARGUMENT: too many cards');
  const known = new Map(project.brief.cards.map((c) => [c.id, c]));
  const seen = new Set<string>();
  const cards: InstructionCard[] = wanted.map((raw, i) => {
    const c = asArray(raw, `cards[${i}]`);
    const id = c[0] === null || c[0] === undefined ? null : asString(c[0], `cards[${i}].id`);
    if (id !== null && (!known.has(id) || seen.has(id))) throw new RpcRefusal(3, 'INVALID_ARGUMENT: card id');
    if (id !== null) seen.add(id);
    const title = asString(c[1], `cards[${i}].title`).trim();
    const text = asString(c[2], `cards[${i}].text`);
    if (title === '' || title.length > MAX_TITLE || text.trim() === '' || text.length > MAX_TEXT)
      throw new RpcRefusal(3, `INVALID_ARGUMENT: cards[${i}]`);
    if (typeof c[3] !== 'boolean') throw new RpcRefusal(3, `INVALID_ARGUMENT: cards[${i}].enabled`);
    const imageMediaIds = stringList(c[4], `cards[${i}].media`);
    const characterIds = stringList(c[5], `cards[${i}].entities`);
    for (const ref of imageMediaIds) checkReference(ctx, ref, 'media');
    for (const ref of characterIds) checkReference(ctx, ref, 'entity');
    return { id: id ?? newCardId(state.random), title, text, enabled: c[3], imageMediaIds, characterIds };
  });
  const next: ProjectBrief = { enabled: body[0], cards };
  project.brief = state.failures.take(account.email, 'brief_save_lossy') === null ? next : lossy(project.brief, next);
  state.onChange();
  return {
    items: [{ rpcId: ctx.rpcId, payload: briefPayload(state.library, project) }],
    delayMs: state.ms('smallReply'),
  };
}

/** What `brief_save_lossy` stores: the old brief, plus the new cards without their text. */
function lossy(before: ProjectBrief, asked: ProjectBrief): ProjectBrief {
  const kept = copyBrief(before);
  const old = new Set(before.cards.map((c) => c.id));
  for (const card of asked.cards) if (!old.has(card.id)) kept.cards.push({ ...card, text: '' });
  return kept;
}
