import type { BrowserContext, Locator, Page, Response } from 'playwright-core';
import { BadParameterError, FlowAppError, TransportTimeoutError, WireFormatError } from '@gflow/errors';
import { projectUrl } from '../flow/hosts.js';
import type { MediaExtension } from '@gflow/flow-facts';
import { dismissPageOverlays } from '../composer/overlays.js';
import { assertOnFlowApp } from '../projects/flowPage.js';
import { withScratchPage } from '../session/scratchPage.js';
import { fetchMediaInPage } from '../projects/mediaFetch.js';
import { expectRpcReply, payloadOf } from '../projects/rpcReply.js';
import { ChangeSignal } from '../util/changeSignal.js';
import { parseBatchexecute } from '../wire/batchexecute.js';
import { isBatchexecuteUrl, rpcIdsOfRequest } from '../wire/formBody.js';
import { type UpsampledState, findUpsampledState, parseVideoUpscaleReply } from './upscaleReplies.js';
import { findTile, menuEntry } from './tileMenu.js';

export type VideoUpscaleScale = '1080p' | '720p' | '270p';

const UPSAMPLE_RECORD_RPCS: readonly string[] = ['jwpduf', 'as29s'];

export interface UpscaleVideoOptions {
  readonly projectId: string;
  readonly mediaId: string;
  readonly scale: VideoUpscaleScale;
  readonly signal?: AbortSignal;
  /** Overall budget, including Flow's upsampling (default 10 min). */
  readonly timeoutMs?: number;
}

export interface UpscaledVideo {
  readonly media_id: string;
  readonly scale: VideoUpscaleScale;
  readonly bytes: Buffer;
  readonly extension: MediaExtension;
}

/**
 * Upscales or exports a video through its detail view's download menu (flow-wire §5,
 * flow-captures.md §8): 1080p submits `p0UkFb`, then the page's own `jwpduf` poll and `as29s`
 * fetch name `"<id>_upsampled"` until it is done and a record carries its mp4 URL (§4); 720p is the
 * original clip the page downloads; 270p is the animated GIF export (enabled, measured). A disabled
 * entry is UpscaleUnavailableError (22); a missing one is drift (23).
 */
export async function upscaleVideo(context: BrowserContext, options: UpscaleVideoOptions): Promise<UpscaledVideo> {
  if (!['1080p', '720p', '270p'].includes(options.scale))
    throw new BadParameterError(`Video scale must be 1080p, 720p or 270p, not ${String(options.scale)}.`);
  const budget = options.timeoutMs ?? 600_000;
  const wait = { signal: options.signal, timeoutMs: Math.min(budget, 60_000) };
  const what = `upscaling video ${options.mediaId} to ${options.scale}`;
  return withScratchPage(context, projectUrl(options.projectId), { ...wait, what }, async (page) => {
    const tile = await findTile(page, 'video', options.mediaId, wait);
    await dismissPageOverlays(page);
    const entry = await menuEntry(page, tile, options.scale);
    if (options.scale === '1080p') return await upsample(page, entry, options, budget);
    const contentReply = page
      .waitForResponse((r) => isContentFor(r, options.mediaId), { timeout: wait.timeoutMs })
      .catch(() => null);
    await entry.click({ timeout: 5_000 });
    const seen = await contentReply;
    if (seen === null)
      throw new TransportTimeoutError(`The ${options.scale} entry fetched no media for ${options.mediaId}.`);
    const fetched = await fetchMediaInPage(page, seen.url(), {
      kind: options.scale === '720p' ? 'video' : 'image',
      signal: options.signal,
      mediaId: options.mediaId,
    });
    return { media_id: options.mediaId, scale: options.scale, ...fetched };
  });
}

function isContentFor(response: Response, mediaId: string): boolean {
  try {
    const u = new URL(response.url());
    return u.hostname === 'flow-content.google' && u.pathname.includes(mediaId) && response.status() < 300;
  } catch {
    return false;
  }
}

async function upsample(
  page: Page,
  entry: Locator,
  options: UpscaleVideoOptions,
  budget: number,
): Promise<UpscaledVideo> {
  const submitted = expectRpcReply(page, 'p0UkFb', {
    timeoutMs: 60_000,
    signal: options.signal,
    requestBody: (b) => b.includes(options.mediaId),
  });
  let jobId: string | null = null;
  const latest: { state: UpsampledState | null } = { state: null };
  const changed = new ChangeSignal();
  const onResponse = (response: Response): void => {
    const request = response.request();
    // The poll (jwpduf) reports status and size; the URL-carrying record comes on as29s (flow-captures.md §4).
    if (
      !isBatchexecuteUrl(request.url()) ||
      !rpcIdsOfRequest(request.url(), request.postData()).some((id) => UPSAMPLE_RECORD_RPCS.includes(id))
    )
      return;
    response
      .text()
      .then((text) => {
        if (jobId === null) return;
        for (const item of parseBatchexecute(text).items) {
          const state = findUpsampledState(item.payload, jobId);
          // A later URL-less record never replaces one that carries the URL.
          if (state !== null && !(latest.state?.videoUrl && !state.videoUrl)) latest.state = state;
        }
        changed.notify();
      })
      .catch(() => undefined);
  };
  page.on('response', onResponse);
  try {
    await entry.click({ timeout: 5_000 });
    jobId = parseVideoUpscaleReply(payloadOf(await submitted), options.mediaId);
    const deadline = Date.now() + budget;
    for (;;) {
      assertOnFlowApp(page);
      const state = latest.state;
      if (state !== null && state.status !== null && state.status !== 6 && state.status !== 2) {
        if (state.status !== 3)
          throw new FlowAppError(`Flow's 1080p upscale of ${options.mediaId} failed (status ${state.status}).`, {
            retryable: false,
          });
        if (state.videoUrl !== null) {
          const fetched = await fetchMediaInPage(page, state.videoUrl, {
            kind: 'video',
            expectedBytes: state.byteSize,
            signal: options.signal,
            mediaId: jobId,
          });
          return { media_id: options.mediaId, scale: '1080p', ...fetched };
        }
      }
      if (Date.now() >= deadline) {
        if (state === null) throw new WireFormatError(`Flow's status poll never named the upsampled job ${jobId}.`);
        throw new TransportTimeoutError(
          `The 1080p upscale of ${options.mediaId} did not finish within ${Math.round(budget / 1000)} s.`,
        );
      }
      // The next poll reply wakes this (the page polls on its own, flow-wire §3: every 5 s); the
      // landing is re-checked at least each second in between.
      await changed.next(Math.max(0, Math.min(1_000, deadline - Date.now())), options.signal);
    }
  } finally {
    page.off('response', onResponse);
  }
}
