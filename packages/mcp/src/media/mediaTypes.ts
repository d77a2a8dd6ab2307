import path from 'node:path';
import { mimeOf } from '@gflow/core/surfaces';

/** The media type a file name's extension implies (the media kinds Flow gives), or undefined. */
export function mediaTypeOfPath(file: string): string | undefined {
  const type = mimeOf(path.extname(file));
  return type === 'application/octet-stream' ? undefined : type;
}
