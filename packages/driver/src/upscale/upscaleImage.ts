import type { BrowserContext } from 'playwright-core';
import { BadParameterError, UpscaleUnavailableError } from '@gflow/errors';
import { projectUrl } from '../flow/hosts.js';
import { dismissPageOverlays } from '../composer/overlays.js';
import { assertOnFlowApp } from '../projects/flowPage.js';
import { withScratchPage } from '../session/scratchPage.js';
import { expectRpcReply, payloadOf } from '../projects/rpcReply.js';
import { readRefusal } from '../wire/refusal.js';
import { parseImageUpscaleReply } from './upscaleReplies.js';
import { findTile, menuEntry } from './tileMenu.js';

export type ImageUpscaleScale = '2k' | '4k';

export interface UpscaleImageOptions {
  readonly projectId: string;
  readonly mediaId: string;
  readonly scale: ImageUpscaleScale;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

export interface UpscaledImage {
  readonly media_id: string;
  readonly scale: ImageUpscaleScale;
  readonly bytes: Buffer;
  readonly extension: '.png' | '.jpg' | '.webp' | '.gif';
}

/**
 * Upscales an image through its tile's download menu (flow-wire §5): the 2K/4K entry, then
 * Flow's own synchronous `SPrCad` reply `[["metadata"], "<base64 JPEG>"]`. Free. A disabled 4K
 * entry (or a 4K refusal) is UpscaleUnavailableError (22); a missing entry is drift (23).
 */
export async function upscaleImage(context: BrowserContext, options: UpscaleImageOptions): Promise<UpscaledImage> {
  if (options.scale !== '2k' && options.scale !== '4k')
    throw new BadParameterError(`Image upscale scale must be 2k or 4k, not ${String(options.scale)}.`);
  const wait = { signal: options.signal, timeoutMs: options.timeoutMs ?? 60_000 };
  const what = `upscaling image ${options.mediaId} to ${options.scale.toUpperCase()}`;
  return withScratchPage(context, projectUrl(options.projectId), { ...wait, what }, async (page) => {
    const tile = await findTile(page, 'image', options.mediaId, wait);
    await dismissPageOverlays(page);
    const entry = await menuEntry(page, tile, options.scale.toUpperCase());
    const reply = expectRpcReply(page, 'SPrCad', { ...wait, requestBody: (body) => body.includes(options.mediaId) });
    await entry.click({ timeout: 5_000 });
    const answered = await reply;
    const refusal = answered.item === null ? null : readRefusal(answered.item.error);
    if (options.scale === '4k' && refusal?.code === 7) {
      throw new UpscaleUnavailableError('Flow refused the 4K upscale for this account (4K needs Ultra).', {
        extensions: { flow_media_id: options.mediaId },
      });
    }
    const { bytes, extension } = parseImageUpscaleReply(payloadOf(answered));
    assertOnFlowApp(page);
    return { media_id: options.mediaId, scale: options.scale, bytes, extension };
  });
}
