import type { BrowserContext, Page, Response } from 'playwright-core';
import { BadParameterError, FlowAppError, ReferenceNotFoundError } from '@gflow/errors';
import { isAllowedMediaUrl } from '../download/allowlist.js';
import type { MediaExtension } from '@gflow/flow-facts';
import { projectUrl } from '../flow/hosts.js';
import { abandonMention, focusEditor, openMentionPicker } from '../characters/mentionPicker.js';
import { cssString } from '../auth/signInSteps.js';
import { ChangeSignal } from '../util/changeSignal.js';
import { parseBatchexecute } from '../wire/batchexecute.js';
import { isBatchexecuteUrl, rpcIdsOfRequest } from '../wire/formBody.js';
import { type VideoRecord, findVideoRecords } from '../wire/videoRecords.js';
import { withScratchPage } from '../session/scratchPage.js';
import { assertOnFlowApp, waitForAnchor } from './flowPage.js';
import { fetchMediaInPage } from './mediaFetch.js';
import { readPageFacts, tileNames } from './pageFacts.js';

export interface MediaLocation {
  readonly media_id: string;
  readonly project_id: string;
  readonly workflow_id: string | null;
  readonly kind: 'image' | 'video';
  /** The signed URL Flow's page holds for the media. */
  readonly url: string;
  /** The record's other URL slot (the poster), tried when the bytes are the wrong kind. */
  readonly fallback_url: string | null;
  /** The byte size Flow reports (videos, from the record), else null. */
  readonly expected_bytes: number | null;
  /** Where the URL came from. */
  readonly source: 'records' | 'grid';
}

export interface FindMediaOptions {
  readonly projectId: string;
  readonly mediaId: string;
  readonly kind: 'image' | 'video';
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

const RECORD_RPCS = ['as29s', 'jwpduf'];
/**
 * How long the records the page asks for as it loads may take before gflow asks again through the
 * @ picker: a deadline, woken early by each reply (the simulator's project replies take ~0.5 s
 * scaled, flow-wire §3).
 */
const RECORDS_ON_LOAD_MS = 1_000;

/**
 * Finds a billed media's signed URL in its project (flow-wire §5 "Download by media id": labs'
 * redirect route 404s for migrated ids, so the records are used): the video records the page
 * loads itself (`jwpduf`, and `as29s`, which also fires when the `@` picker opens), else the grid
 * tile (`img[data-media-id]`, a video tile's `<video>` that mounts on hover).
 */
export async function findMediaUrl(context: BrowserContext, options: FindMediaOptions): Promise<MediaLocation> {
  return withMediaPage(context, options, async (_page, location) => location);
}

export interface DownloadedById {
  readonly media_id: string;
  readonly project_id: string;
  readonly workflow_id: string | null;
  readonly bytes: Buffer;
  readonly extension: MediaExtension;
  /** The name the media's tile shows (pageFacts.ts), or null when it shows none. */
  readonly display_name: string | null;
  /** The project's title as its header shows it, or null. */
  readonly project_title: string | null;
}

/**
 * Re-downloads a billed media by id (seed gflow_download_media): its URL from the project's
 * records (or the grid tile's `/asb/` URL, whose redirect is followed within the allowlist), the
 * bytes fetched the way Flow's page fetches them and verified by kind — the record's other URL
 * slot is tried when they are the wrong kind (flow-captures.md §3) — a dropped connection retried.
 * Spends nothing.
 */
export async function downloadMediaById(context: BrowserContext, options: FindMediaOptions): Promise<DownloadedById> {
  return withMediaPage(context, options, async (page, location) => {
    const fetched = await fetchMediaInPage(page, location.url, {
      kind: location.kind,
      fallbackUrl: location.fallback_url,
      expectedBytes: location.expected_bytes,
      signal: options.signal,
      mediaId: location.media_id,
    });
    const facts = await readPageFacts(page).catch(() => null);
    return {
      media_id: location.media_id,
      project_id: location.project_id,
      workflow_id: location.workflow_id,
      ...fetched,
      display_name: facts === null ? null : (tileNames(facts).get(location.media_id) ?? null),
      project_title: facts?.title ?? null,
    };
  });
}

async function withMediaPage<T>(
  context: BrowserContext,
  options: FindMediaOptions,
  use: (page: Page, location: MediaLocation) => Promise<T>,
): Promise<T> {
  if (options.kind !== 'image' && options.kind !== 'video') throw new BadParameterError('kind must be image or video.');
  const wait = { signal: options.signal, timeoutMs: options.timeoutMs ?? 30_000 };
  const records = new Map<string, VideoRecord>();
  const arrived = new ChangeSignal();
  const collect = (response: Response): void => {
    const request = response.request();
    if (
      !isBatchexecuteUrl(request.url()) ||
      !rpcIdsOfRequest(request.url(), request.postData()).some((id) => RECORD_RPCS.includes(id))
    )
      return;
    response
      .text()
      .then((text) => {
        for (const item of parseBatchexecute(text).items)
          for (const r of findVideoRecords(item.payload))
            if (r.mediaId === options.mediaId) records.set(r.mediaId, better(records.get(r.mediaId), r));
        arrived.notify();
      })
      .catch(() => undefined);
  };
  const what = `finding ${options.kind} ${options.mediaId} in its project`;
  const beforeGoto = (p: Page): void => void p.on('response', collect);
  // A page of its own, photographed if the media cannot be found or fetched (the incident bundle).
  return withScratchPage(context, projectUrl(options.projectId), { ...wait, what, beforeGoto }, async (page) => {
    try {
      const location =
        options.kind === 'video'
          ? await locateVideo(page, options, { records, arrived }, wait)
          : await locateImage(page, options, wait);
      return await use(page, location);
    } finally {
      page.off('response', collect);
    }
  });
}

function better(old: VideoRecord | undefined, next: VideoRecord): VideoRecord {
  return old !== undefined && old.videoUrl !== null && next.videoUrl === null ? old : next;
}

async function locateVideo(
  page: Page,
  options: FindMediaOptions,
  seen: { readonly records: Map<string, VideoRecord>; readonly arrived: ChangeSignal },
  wait: { signal?: AbortSignal | undefined; timeoutMs: number },
): Promise<MediaLocation> {
  const { records, arrived } = seen;
  const ready = page.locator('flow-prompt-box, flow-asset-grid, flow-video-tile, flow-image-tile');
  await waitForAnchor(page, ready, wait);
  const fromRecord = (): MediaLocation | null => {
    const r = records.get(options.mediaId);
    if (r === undefined || r.status !== 3 || r.videoUrl === null) return null;
    return {
      media_id: r.mediaId,
      project_id: r.projectId,
      workflow_id: r.workflowId,
      kind: 'video',
      url: r.videoUrl,
      fallback_url: r.posterUrl,
      expected_bytes: r.byteSize,
      source: 'records',
    };
  };
  const recorded = (): MediaLocation | undefined => fromRecord() ?? undefined;
  // The page's own load asks for the project's records: they may already be on their way.
  let found = (await arrived.until(recorded, RECORDS_ON_LOAD_MS, options.signal)) ?? null;
  if (found === null && (await page.locator('flow-prompt-box [contenteditable="true"]').count()) > 0) {
    // Else the @ picker makes the page ask for them again (flow-wire §4).
    await focusEditor(page, wait, 'the project records').catch(() => undefined);
    await openMentionPicker(page);
    found = (await arrived.until(recorded, Math.min(wait.timeoutMs, 10_000), options.signal)) ?? null;
    await abandonMention(page);
  }
  assertOnFlowApp(page);
  const known = records.get(options.mediaId);
  if (found === null && known !== undefined && known.status !== 3) {
    throw new FlowAppError(
      `Media ${options.mediaId} is not a finished clip (status ${String(known.status)}); nothing to download.`,
      { retryable: false },
    );
  }
  return found ?? (await fromVideoTile(page, options));
}

async function fromVideoTile(page: Page, options: FindMediaOptions): Promise<MediaLocation> {
  const tile = page
    .locator('flow-video-tile')
    .filter({ has: page.locator(`img[data-media-id="${cssString(options.mediaId)}"]`) })
    .first();
  if ((await tile.count()) > 0) {
    await tile.hover({ timeout: 5_000 }).catch(() => undefined);
    const src = await tile
      .locator('video')
      .first()
      .evaluate((v) => (v as HTMLVideoElement).currentSrc || (v as HTMLVideoElement).src)
      .catch(() => '');
    if (src !== '' && isAllowedMediaUrl(src)) {
      return {
        media_id: options.mediaId,
        project_id: options.projectId,
        workflow_id: null,
        kind: 'video',
        url: src,
        fallback_url: null,
        expected_bytes: null,
        source: 'grid',
      };
    }
  }
  throw new ReferenceNotFoundError(
    `The project's records and grid name no finished video with media id ${options.mediaId}.`,
    { extensions: { flow_media_id: options.mediaId } },
  );
}

async function locateImage(
  page: Page,
  options: FindMediaOptions,
  wait: { signal?: AbortSignal | undefined; timeoutMs: number },
): Promise<MediaLocation> {
  const img = page.locator(`img[data-media-id="${cssString(options.mediaId)}"]`).first();
  if (!(await waitForAnchor(page, img, wait))) {
    throw new ReferenceNotFoundError(`The project's grid shows no image with media id ${options.mediaId}.`, {
      extensions: { flow_media_id: options.mediaId },
    });
  }
  const src = await img.evaluate((el) => (el as HTMLImageElement).currentSrc || (el as HTMLImageElement).src);
  if (!isAllowedMediaUrl(src))
    throw new ReferenceNotFoundError(`The grid tile of ${options.mediaId} has no https media URL.`);
  return {
    media_id: options.mediaId,
    project_id: options.projectId,
    workflow_id: null,
    kind: 'image',
    url: src,
    fallback_url: null,
    expected_bytes: null,
    source: 'grid',
  };
}
