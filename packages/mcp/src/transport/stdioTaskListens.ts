import type { GflowLike, GflowLogger } from '../gflowPort.js';
import { taskListenMessages, taskListenOf } from '../tasks/taskNotifications.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Task-only subscriptions on stdio (SEP-2663 `notifications/tasks`), which the SDK's stdio listen
 * router cannot carry: such a `subscriptions/listen` is answered here, its messages written as
 * lines on the protocol channel, and `notifications/cancelled` for its id ends it. Returns the
 * `divert` of filterJsonRpcInput and a way to end every subscription (the server closing).
 */
export function stdioTaskListens(
  gflow: GflowLike,
  write: (message: unknown) => void,
  logger: GflowLogger,
): { divert(message: unknown): boolean; closeAll(): void } {
  const open = new Map<string | number, AbortController>();
  const serve = async (listen: NonNullable<ReturnType<typeof taskListenOf>>, stop: AbortController) => {
    try {
      for await (const message of taskListenMessages(gflow, listen, stop.signal)) write(message);
    } catch (error) {
      logger.warn('mcp.stdio.task_listen_failed', { error: String(error) });
    } finally {
      if (open.get(listen.id) === stop) open.delete(listen.id);
    }
  };
  return {
    divert(message) {
      const listen = taskListenOf(message);
      if (listen) {
        const stop = new AbortController();
        open.get(listen.id)?.abort();
        open.set(listen.id, stop);
        void serve(listen, stop);
        return true;
      }
      if (!isRecord(message) || message['method'] !== 'notifications/cancelled') return false;
      const params = isRecord(message['params']) ? message['params'] : {};
      const requestId = params['requestId'];
      const stop = typeof requestId === 'string' || typeof requestId === 'number' ? open.get(requestId) : undefined;
      if (!stop) return false;
      stop.abort();
      return true;
    },
    closeAll() {
      for (const stop of open.values()) stop.abort();
      open.clear();
    },
  };
}
