import { setTimeout as sleep } from 'node:timers/promises';
import type { TaskRecord } from '@gflow/catalog';
import type { RuntimeServices } from '../runtime/runtimeServices.js';

const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled', 'indeterminate']);

/** Whether a task has settled (its row never changes again, unless a run is resumed). */
export function isSettled(record: TaskRecord): boolean {
  return TERMINAL.has(record.status);
}

/**
 * Follows a task row (whoever runs it) until it settles, reading it every `pollMs`; `onChange`
 * hears each new status or phase. Aborted by `signal` (the task keeps running).
 */
export async function awaitTask(
  runtime: Pick<RuntimeServices, 'queue'>,
  taskId: string,
  options: { signal: AbortSignal; pollMs?: number; onChange?: (record: TaskRecord) => void },
): Promise<TaskRecord> {
  let last = '';
  for (;;) {
    const record = await runtime.queue.get(taskId);
    if (record === undefined) throw new Error(`task ${taskId} vanished`);
    if (isSettled(record)) return record;
    const key = `${record.status}/${record.checkpoint?.phase ?? ''}`;
    if (key !== last) {
      last = key;
      options.onChange?.(record);
    }
    await sleep(options.pollMs ?? 250, undefined, { signal: options.signal });
  }
}
