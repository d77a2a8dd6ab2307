import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ResourceLink } from '@modelcontextprotocol/server';

const MIME_BY_EXTENSION: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
};

/**
 * `resource_link` content items for the media files of a completed generation.
 * They are `file://` URIs of the files gflow wrote inside the output directory:
 * the server and the agent share a machine (stdio, or a loopback daemon), the
 * same absolute paths are already in the result's `files`, and a file URI is
 * readable by any client without another round trip. gflow does not serve
 * media bytes as MCP resources (a video can be hundreds of MB).
 */
export function mediaLinks(files: readonly string[]): ResourceLink[] {
  return files
    .filter((file) => path.isAbsolute(file))
    .map((file) => {
      const mimeType = MIME_BY_EXTENSION[path.extname(file).toLowerCase()];
      return {
        type: 'resource_link' as const,
        uri: pathToFileURL(file).href,
        name: path.basename(file),
        ...(mimeType ? { mimeType } : {}),
      };
    });
}
