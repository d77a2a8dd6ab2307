import { randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ConfigurationError, MediaUploadRejectedError, WireFormatError } from '@gflow/errors';
import { MAX_UPLOAD_BYTES, mimeOf, sniffImage } from '@gflow/flow-facts';
import type { Locator, Page } from 'playwright-core';
import type { OpContext } from '../session/opContext.js';
import type { TappedResponse } from '../session/wireTap.js';
import { projectIdOfUrl } from '../flow/hosts.js';
import { firstUuid } from '../wire/uuid.js';
import { A, withIcon } from './anchors.js';
import { driftError } from './drift.js';
import { safeClick } from './safeClick.js';

export const UPLOAD_RPC = 'maseQ';

/** `<stem>-<8hex><ext>`: a run-unique display name, so a re-run cannot bind an earlier upload. */
export function runUniqueName(filePath: string, hex: string = randomBytes(4).toString('hex')): string {
  const ext = path.extname(filePath);
  const stem =
    path
      .basename(filePath, ext)
      .replace(/[^\p{L}\p{N}._ -]/gu, '_')
      .slice(0, 80) || 'image';
  return `${stem}-${hex}${ext.toLowerCase()}`;
}

/** The + menu's Upload entry: a menu item holding the `upload` ligature (flow-wire §4). */
export function uploadMenuItem(page: Page): Locator {
  return withIcon(page, page.locator(`${A.overlayPane} ${A.menuItem}`), 'upload').first();
}

export interface UploadedFile {
  readonly mediaId: string;
  readonly displayName: string;
  /** The local file it was made from (core remembers it by content, to mention it in place next time). */
  readonly sourcePath?: string;
}

/** Pre-checks a local image: ≤20 MB and PNG/JPEG/WebP/GIF magic (flow-wire §5). */
export async function readUploadable(filePath: string): Promise<Buffer> {
  let size: number;
  try {
    size = (await stat(filePath)).size;
  } catch {
    throw new ConfigurationError(`The file ${path.basename(filePath)} does not exist or cannot be read.`);
  }
  if (size > MAX_UPLOAD_BYTES)
    throw new ConfigurationError(`${path.basename(filePath)} is larger than Flow's 20 MB upload limit.`);
  const bytes = await readFile(filePath);
  if (sniffImage(bytes) === null)
    throw new ConfigurationError(`${path.basename(filePath)} is not a PNG, JPEG, WebP or GIF image.`);
  return bytes;
}

/** The toolbar `+` → Upload → the file chooser, given the bytes under a run-unique name. */
async function chooseFile(ctx: OpContext, file: { bytes: Buffer; displayName: string; path: string }): Promise<void> {
  const { page } = ctx;
  try {
    await safeClick(ctx, page.locator(A.plusButton).first(), 'uploading a file');
  } catch (error) {
    const mapped = ctx.mapError(error, 'uploading a file');
    if (mapped !== error) throw mapped;
    throw await driftError(page, 'Could not click the toolbar + button', A.plusButton, { cause: error });
  }
  const uploadItem = uploadMenuItem(page);
  try {
    await uploadItem.waitFor({ state: 'visible', timeout: 5_000 });
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser', { timeout: 10_000 }),
      uploadItem.click({ timeout: 5_000 }),
    ]);
    const mimeType = mimeOf(path.extname(file.path));
    await chooser.setFiles({ name: file.displayName, mimeType, buffer: file.bytes });
  } catch (error) {
    const mapped = ctx.mapError(error, 'uploading a file');
    if (mapped !== error) throw mapped;
    throw await driftError(
      page,
      'The + menu offered no working Upload entry (an `upload` ligature menu item opening a file chooser)',
      `${A.overlayPane} ${A.menuItem}`,
      { cause: error },
    );
  }
}

/** Why no upload reply came: the request never left, or Flow's one-time rights dialog is open. */
async function noUploadReply(ctx: OpContext, since: number, displayName: string, timeoutMs: number): Promise<Error> {
  const { page } = ctx;
  const sent = ctx.tap.requestsSince(since, [UPLOAD_RPC]).length > 0;
  const dialog = await page
    .locator(A.dialog)
    .filter({ has: page.locator(A.uploadTermsButton) })
    .first()
    .isVisible()
    .catch(() => false);
  return new MediaUploadRejectedError(
    `No ${UPLOAD_RPC} reply within ${Math.round(timeoutMs / 1000)} s for ${displayName}: the request ${sent ? 'went out' : 'never left the page'}` +
      (dialog ? ', and Flow\'s one-time "rights to use this image" dialog is open.' : ', and no dialog appeared.'),
    dialog
      ? {
          remediationHint:
            'Open the project on flow.google.com, upload any image by hand and accept the rights dialog once; gflow will not affirm it for you.',
        }
      : {},
  );
}

/** The page's own `maseQ` reply after `since`, or why none came. */
async function awaitUploadReply(ctx: OpContext, since: number, displayName: string, timeoutMs: number) {
  return ctx
    .waitForTap(
      (event) =>
        event.type === 'response' && event.value.seq > since && event.value.rpcIds.includes(UPLOAD_RPC)
          ? event.value
          : undefined,
      timeoutMs,
      () => new Error('upload timeout'),
      'uploading a file',
    )
    .catch(async (error: unknown) => {
      if (!(error instanceof Error) || error.message !== 'upload timeout') throw error;
      throw await noUploadReply(ctx, since, displayName, timeoutMs);
    });
}

/** The new media id: the reply's first UUID, never the project's own id (flow-captures.md §9). */
function mediaIdOfReply(ctx: OpContext, reply: TappedResponse, displayName: string): string {
  if (reply.status >= 400)
    throw new MediaUploadRejectedError(`Flow answered the upload of ${displayName} with HTTP ${reply.status}.`);
  const item = reply.envelope?.items.find((i) => i.rpcId === UPLOAD_RPC);
  if (item === undefined) throw new WireFormatError(`The ${UPLOAD_RPC} reply for ${displayName} could not be read.`);
  const mediaId = firstUuid(item.payload);
  if (mediaId === null)
    throw new MediaUploadRejectedError(
      `Flow declined ${displayName}: the ${UPLOAD_RPC} reply carries no media id (too small or unsupported image?).`,
    );
  // One that is the project's own id means the layout changed, and binding it would reference the project.
  if (mediaId === projectIdOfUrl(ctx.page.url()))
    throw new WireFormatError(
      `The ${UPLOAD_RPC} reply for ${displayName} names the project id first, not a media id; gflow will not bind it. Nothing was submitted.`,
      { retryable: false },
    );
  return mediaId;
}

/**
 * Uploads through the toolbar `+` → Upload → file chooser with a buffer payload under a
 * run-unique name, and reads the new media id from the page's own `maseQ` reply (≤60 s).
 */
export async function uploadFile(
  ctx: OpContext,
  filePath: string,
  options: { timeoutMs?: number } = {},
): Promise<UploadedFile> {
  const bytes = await readUploadable(filePath);
  const displayName = runUniqueName(filePath);
  ctx.check('uploading a file');
  const since = ctx.tap.seq;
  await chooseFile(ctx, { bytes, displayName, path: filePath });
  const reply = await awaitUploadReply(ctx, since, displayName, options.timeoutMs ?? 60_000);
  const mediaId = mediaIdOfReply(ctx, reply, displayName);
  ctx.logger.info('uploaded', { displayName, mediaId });
  return { mediaId, displayName, sourcePath: filePath };
}
