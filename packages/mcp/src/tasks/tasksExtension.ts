import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  type ServerContext,
} from '@modelcontextprotocol/server';

/** The Tasks extension (SEP-2663): its id in `capabilities.extensions`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether a capabilities object declares the Tasks extension (`extensions["io.modelcontextprotocol/tasks"]`). */
function declares(capabilities: unknown): boolean {
  if (!isRecord(capabilities)) return false;
  const extensions = capabilities['extensions'];
  return isRecord(extensions) && isRecord(extensions[TASKS_EXTENSION]);
}

/**
 * Whether the client declared the Tasks extension on this request. SEP-2663 negotiates per
 * request, "regardless of prior declarations": the client capabilities of the request's `_meta`
 * (the 2026-07-28 envelope, which a single request may also use to opt in). A 2025-era request
 * declares it the same way, in its own `_meta`; what a client said in `initialize` does not count.
 */
export function clientDeclaresTasks(ctx: ServerContext): boolean {
  const envelope: unknown = ctx.mcpReq.envelope;
  if (isRecord(envelope) && CLIENT_CAPABILITIES_META_KEY in envelope)
    return declares(envelope[CLIENT_CAPABILITIES_META_KEY]);
  const meta: unknown = ctx.mcpReq._meta;
  return isRecord(meta) && declares(meta[CLIENT_CAPABILITIES_META_KEY]);
}

/** The -32021 a client without the extension gets for tasks/* and for a tool that only runs as a task. */
export function missingTasksCapability(what: string): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    `${what} needs the ${TASKS_EXTENSION} extension, which this request's client capabilities do not declare. Without it, use gflow_task_get, gflow_task_wait and gflow_task_cancel.`,
  );
}
