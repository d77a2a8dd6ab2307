import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { FLOW_ID } from '@gflow/core/surfaces';
import type { ResourceLink } from '@modelcontextprotocol/server';
import { mediaTypeOfPath } from '../media/mediaTypes.js';
import { mediaUri } from '../media/mediaUri.js';

/**
 * `resource_link` content items for the media files of a completed generation.
 * They are `file://` URIs of the files gflow wrote inside the output directory:
 * the server and the agent usually share a machine (stdio, or a loopback
 * daemon), the same absolute paths are already in the result's `files`, and a
 * file URI needs no extra round trip and has no size limit.
 */
export function mediaLinks(files: readonly string[]): ResourceLink[] {
  return files
    .filter((file) => path.isAbsolute(file))
    .map((file) => {
      const mimeType = mediaTypeOfPath(file);
      return {
        type: 'resource_link' as const,
        uri: pathToFileURL(file).href,
        name: path.basename(file),
        ...(mimeType ? { mimeType } : {}),
      };
    });
}

/** A generated item of a completion reply: its media id and, when known, its file. */
export interface GeneratedMedia {
  readonly mediaId: string;
  readonly file?: string | undefined;
}

/**
 * One `resource_link` to gflow://media/<media_id> per generated media id, for
 * clients that cannot read the server's local files: resources/read returns
 * the bytes (up to the resource's size cap) from the catalog.
 */
export function catalogMediaLinks(media: readonly GeneratedMedia[]): ResourceLink[] {
  const seen = new Set<string>();
  return media
    .filter((item) => FLOW_ID.test(item.mediaId) && !seen.has(item.mediaId) && seen.add(item.mediaId))
    .map((item) => {
      const mimeType = item.file === undefined ? undefined : mediaTypeOfPath(item.file);
      return {
        type: 'resource_link' as const,
        uri: mediaUri(item.mediaId),
        name: item.mediaId,
        description: 'The generated file through MCP: resources/read returns its bytes from the local catalog.',
        ...(mimeType ? { mimeType } : {}),
      };
    });
}
