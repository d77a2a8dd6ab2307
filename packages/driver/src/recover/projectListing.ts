import { WireFormatError } from '@gflow/errors';
import { abandonMention, focusEditor, openMentionPicker } from '../characters/mentionPicker.js';
import { type OpenTimeouts, openProject } from '../composer/openProject.js';
import type { OpContext } from '../session/opContext.js';
import type { TapEvent, TappedResponse } from '../session/wireTap.js';
import { decodeFormBody } from '../wire/formBody.js';
import { type VideoRecord, findVideoRecords, supersedes } from '../wire/videoRecords.js';

/** How long the page's own listing may take once the `@` picker asks for it (flow-wire §4: `as29s` replies in ~0.4 s). */
export const LISTING_MS = 12_000;

/** Clock slack between a click time (this machine's clock) and Flow's creation stamps. */
export const CLOCK_SLACK_MS = 5_000;

/** The clips a fresh load of a project listed, as the page itself asked for them. */
export interface ClipListing {
  /** The tap's sequence number before the load: replies after it belong to this load. */
  readonly sinceSeq: number;
  /** The most finished record of each clip listed since the load, by media id. */
  readonly clips: ReadonlyMap<string, VideoRecord>;
  /** Whether the picker's project listing (`as29s` `[null, projectId]`) answered: the listing is whole. */
  readonly complete: boolean;
}

/** Every video record the page received after `sinceSeq`, the most finished per media id. */
export function clipsSince(ctx: OpContext, sinceSeq: number): Map<string, VideoRecord> {
  const clips = new Map<string, VideoRecord>();
  for (const response of ctx.tap.responses) {
    if (response.seq <= sinceSeq || response.envelope === null) continue;
    for (const item of response.envelope.items)
      for (const r of findVideoRecords(item.payload)) if (supersedes(clips.get(r.mediaId), r)) clips.set(r.mediaId, r);
  }
  return clips;
}

/** An `as29s` reply to the project listing (`[null, projectId]`), not to one clip's result fetch (`["<workflowId>"]`). */
function isProjectListing(response: TappedResponse): boolean {
  if (!response.rpcIds.includes('as29s')) return false;
  const calls = decodeFormBody(response.request.postData() ?? '').calls.filter((c) => c.rpcId === 'as29s');
  return calls.some((c) => Array.isArray(c.inner) && typeof c.inner[0] !== 'string');
}

class NoListing extends Error {}

/**
 * Makes the page list the project's clips (flow-wire §4): the `@` picker asks for them with
 * `as29s` `[null, projectId]`. False when the page has no classic composer to open it from, or
 * the listing never answers.
 */
async function askForListing(ctx: OpContext): Promise<boolean> {
  try {
    await focusEditor(ctx.page, { signal: ctx.signal, timeoutMs: LISTING_MS }, 'the project listing');
  } catch (error) {
    if (error instanceof WireFormatError) return false;
    throw error;
  }
  const opened = ctx.tap.seq;
  await openMentionPicker(ctx.page);
  const answered = (event: TapEvent): true | undefined =>
    event.type === 'response' && event.value.seq > opened && isProjectListing(event.value) ? true : undefined;
  const listed = ctx.tap.responses.some((r) => r.seq > opened && isProjectListing(r))
    ? true
    : await ctx
        .waitForTap(answered, LISTING_MS, () => new NoListing(), 'the project listing')
        .catch((error) => {
          if (error instanceof NoListing) return false;
          throw error;
        });
  await abandonMention(ctx.page);
  return listed;
}

/**
 * Loads a project afresh so the page lists its clips itself (generalised from the lost-reply
 * follower): it resumes polling the pending ones (`jwpduf`) and lists them all when the `@` picker
 * opens (`as29s`). Returns every clip record the load brought; the page goes on polling the
 * pending ones, which a watcher reads from the tap (`sinceSeq`).
 */
export async function listProjectClips(
  ctx: OpContext,
  projectId: string,
  timeouts: OpenTimeouts,
): Promise<ClipListing> {
  const sinceSeq = ctx.tap.seq;
  await openProject(ctx, projectId, timeouts, { reuse: false });
  return listClipsOnPage(ctx, sinceSeq);
}

/** The same on the project page already loaded (after `sinceSeq`): the `@` picker's listing and what the load brought. */
export async function listClipsOnPage(ctx: OpContext, sinceSeq: number): Promise<ClipListing> {
  const complete = await askForListing(ctx);
  return { sinceSeq, clips: clipsSince(ctx, sinceSeq), complete };
}

/** A listing that never answered is a page gflow no longer knows how to read (exit 7). */
export function incompleteListing(projectId: string, what: string): WireFormatError {
  return new WireFormatError(
    `The project's page did not list its clips the way gflow reads them (no \`as29s\` listing when the @ picker opened), so ${what} cannot be settled.`,
    { retryable: false, extensions: { flow_project_id: projectId } },
  );
}
