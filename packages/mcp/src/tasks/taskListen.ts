import { CLIENT_CAPABILITIES_META_KEY } from '@modelcontextprotocol/server';
import { TASKS_EXTENSION } from './tasksExtension.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON-RPC error answer, as the transports write it. */
interface ErrorAnswer {
  readonly jsonrpc: '2.0';
  readonly id: string | number | null;
  readonly error: { readonly code: number; readonly message: string; readonly data?: unknown };
}

/**
 * SEP-2663: a `subscriptions/listen` request that asks for task status notifications
 * (`notifications.taskIds`) without declaring the Tasks extension in its client capabilities MUST
 * be refused with -32021. The SDK's listen router would drop the unknown filter field in silence,
 * so both transports ask this first. A declaring client's request goes on: its acknowledgement
 * lists no task ids, which tells it gflow pushes no `notifications/tasks` (it polls tasks/get).
 */
export function refusedTaskListen(message: Readonly<Record<string, unknown>>): ErrorAnswer | undefined {
  if (message['method'] !== 'subscriptions/listen') return undefined;
  const params = isRecord(message['params']) ? message['params'] : {};
  const notifications = isRecord(params['notifications']) ? params['notifications'] : {};
  const taskIds = notifications['taskIds'];
  if (!Array.isArray(taskIds) || taskIds.length === 0) return undefined;
  const meta = isRecord(params['_meta']) ? params['_meta'] : {};
  const capabilities = meta[CLIENT_CAPABILITIES_META_KEY];
  const extensions = isRecord(capabilities) ? capabilities['extensions'] : undefined;
  if (isRecord(extensions) && isRecord(extensions[TASKS_EXTENSION])) return undefined;
  const id = message['id'];
  return {
    jsonrpc: '2.0',
    id: typeof id === 'string' || typeof id === 'number' ? id : null,
    error: {
      code: -32021,
      message: `Task status notifications need the ${TASKS_EXTENSION} extension, which this request's client capabilities do not declare.`,
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    },
  };
}
