import type { CallToolResult } from '@modelcontextprotocol/server';
import { mediaLinks } from './mediaLinks.js';

/** Statuses of a generation envelope that mean the job did not produce its media. */
const FAILED_STATUSES = new Set(['failed', 'error', 'rate_limited', 'indeterminate', 'cancelled']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Renders an operation's result as a tool result: the JSON as
 * `structuredContent` (wrapped as `{result}` when it is not an object) plus
 * the same JSON as text for clients that ignore structured content. A
 * generation reply whose status is a failure is `isError: true`; a completed
 * one also carries `resource_link` items to its files.
 */
export function renderToolResult(value: unknown): CallToolResult {
  const structured = isPlainObject(value) ? value : { result: value ?? null };
  const status = typeof structured['status'] === 'string' ? structured['status'] : undefined;
  const files = Array.isArray(structured['files']) ? structured['files'].filter((f): f is string => typeof f === 'string') : [];
  return {
    content: [{ type: 'text', text: JSON.stringify(structured) }, ...(status === 'completed' ? mediaLinks(files) : [])],
    structuredContent: structured,
    ...(status !== undefined && FAILED_STATUSES.has(status) ? { isError: true } : {}),
  };
}
