import { isFailureStatus } from '@gflow/core';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { catalogMediaLinks, mediaLinks, type GeneratedMedia } from './mediaLinks.js';
import { withMcpWording } from './mcpWording.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Renders an operation's result as a tool result: the JSON as
 * `structuredContent` (wrapped as `{result}` when it is not an object) plus
 * the same JSON as text for clients that ignore structured content. A
 * generation reply whose status is a failure (core's FAILURE_STATUSES) is `isError: true`; a completed
 * one also carries `resource_link` items: file:// URIs of its files, then
 * gflow://media/<media_id> for each generated media id.
 */
export function renderToolResult(value: unknown): CallToolResult {
  const plain = isPlainObject(value) ? value : { result: value ?? null };
  // A failed generation's error carries core's hint: restated in MCP's terms.
  const structured = isPlainObject(plain['error']) ? { ...plain, error: withMcpWording(plain['error']) } : plain;
  const status = typeof structured['status'] === 'string' ? structured['status'] : undefined;
  const files = Array.isArray(structured['files'])
    ? structured['files'].filter((f): f is string => typeof f === 'string')
    : [];
  const links = status === 'completed' ? [...mediaLinks(files), ...catalogMediaLinks(generatedMedia(structured))] : [];
  return {
    content: [{ type: 'text', text: JSON.stringify(structured) }, ...links],
    structuredContent: structured,
    ...(isFailureStatus(status) ? { isError: true } : {}),
  };
}

/** The media ids of a completion reply: each `media[]` item's `media_id`, then `flow_media_id`. */
function generatedMedia(structured: Record<string, unknown>): GeneratedMedia[] {
  const items = Array.isArray(structured['media']) ? structured['media'].filter(isPlainObject) : [];
  const media: GeneratedMedia[] = items
    .filter((item) => typeof item['media_id'] === 'string')
    .map((item) => ({
      mediaId: item['media_id'] as string,
      file: typeof item['file'] === 'string' ? item['file'] : undefined,
    }));
  const first = structured['flow_media_id'];
  return typeof first === 'string' ? [...media, { mediaId: first }] : media;
}
