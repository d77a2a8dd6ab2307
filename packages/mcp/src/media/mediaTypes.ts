import path from 'node:path';
import { mimeOf, sniffMedia } from '@gflow/core';

/** The media type a file name's extension implies (the media kinds Flow gives), or undefined. */
export function mediaTypeOfPath(file: string): string | undefined {
  const type = mimeOf(path.extname(file));
  return type === 'application/octet-stream' ? undefined : type;
}

/** The media type the leading bytes show (PNG, JPEG, GIF, WebP, MP4 `ftyp`), or undefined. */
export function sniffMediaType(bytes: Uint8Array): string | undefined {
  const extension = sniffMedia(bytes);
  return extension === null ? undefined : mimeOf(extension);
}
