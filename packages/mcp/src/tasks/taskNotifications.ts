import { setTimeout as sleep } from 'node:timers/promises';
import { CLIENT_CAPABILITIES_META_KEY, SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import type { GflowLike } from '../gflowPort.js';
import { type DetailedTask, POLL_INTERVAL_MS, detailedTask } from './taskResponse.js';
import { TASKS_EXTENSION } from './tasksExtension.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The most tasks one subscription follows. */
const MAX_TASK_IDS = 100;

/** A `subscriptions/listen` for task status notifications only, from a client that declares the extension. */
export interface TaskListen {
  readonly id: string | number;
  readonly taskIds: readonly string[];
}

/** A JSON-RPC message the subscription sends (notifications, then its closing result). */
export type ListenMessage = Readonly<Record<string, unknown>>;

/**
 * The task-only listen in a message (SEP-2663's `notifications.taskIds` and nothing else, with the
 * extension declared), or undefined: every other listen is the SDK's (which cannot deliver task
 * notifications: its acknowledgement then lists no task ids, and the client polls tasks/get).
 */
export function taskListenOf(message: unknown): TaskListen | undefined {
  if (!isRecord(message) || message['method'] !== 'subscriptions/listen') return undefined;
  const id = message['id'];
  const params = isRecord(message['params']) ? message['params'] : {};
  const notifications = isRecord(params['notifications']) ? params['notifications'] : {};
  const taskIds = notifications['taskIds'];
  if ((typeof id !== 'string' && typeof id !== 'number') || !Array.isArray(taskIds) || taskIds.length === 0)
    return undefined;
  if (Object.keys(notifications).some((key) => key !== 'taskIds')) return undefined;
  const meta = isRecord(params['_meta']) ? params['_meta'] : {};
  const capabilities = meta[CLIENT_CAPABILITIES_META_KEY];
  if (!isRecord(capabilities) || !isRecord(capabilities['extensions'])) return undefined;
  if (!isRecord(capabilities['extensions'][TASKS_EXTENSION])) return undefined;
  const ids = taskIds.filter((t): t is string => typeof t === 'string' && t.length > 0 && t.length <= 200);
  return { id, taskIds: [...new Set(ids)].slice(0, MAX_TASK_IDS) };
}

const SETTLED: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** What a notification says, to tell a change: status, last update, open questions. */
function stateOf(task: DetailedTask): string {
  const questions = task.inputRequests ? Object.keys(task.inputRequests).join(',') : '';
  return `${task.status}|${task.lastUpdatedAt}|${questions}`;
}

/**
 * A task-only subscription's messages: the acknowledgement (the ids this server follows: the known
 * ones), a `notifications/tasks` with the full task each time one changes (and once at the start),
 * and the closing result once every followed task has settled. Each is stamped with the
 * subscription id (the listen request's id). The catalog's rows are read every POLL_INTERVAL_MS,
 * whoever runs the tasks; the signal (the client went away) ends it without a closing result.
 */
export async function* taskListenMessages(
  gflow: GflowLike,
  listen: TaskListen,
  signal: AbortSignal,
): AsyncGenerator<ListenMessage> {
  await gflow.ready();
  const stamp = { [SUBSCRIPTION_ID_META_KEY]: listen.id };
  const known = await Promise.all(listen.taskIds.map(async (id) => (await gflow.tasks.get(id)) !== undefined));
  const followed = listen.taskIds.filter((_id, i) => known[i]);
  yield {
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { notifications: { taskIds: followed }, _meta: stamp },
  };
  const said = new Map<string, string>();
  for (;;) {
    let open = 0;
    for (const id of followed) {
      const view = await gflow.tasks.get(id);
      if (!view) continue;
      const task = detailedTask(view);
      if (!SETTLED.has(task.status)) open += 1;
      const state = stateOf(task);
      if (said.get(id) === state) continue;
      said.set(id, state);
      yield { jsonrpc: '2.0', method: 'notifications/tasks', params: { ...task, _meta: { ...task._meta, ...stamp } } };
    }
    if (open === 0) break;
    try {
      await sleep(POLL_INTERVAL_MS, undefined, { signal });
    } catch {
      return;
    }
  }
  yield { jsonrpc: '2.0', id: listen.id, result: { resultType: 'complete', _meta: stamp } };
}
