import fs from 'node:fs';
import path from 'node:path';
import type { GflowLogger } from '../gflowPort.js';

export interface FlowWatcher {
  close(): void;
}

/** Default quiet period: editors write a file in several steps (truncate, write, rename). */
export const FLOW_WATCH_DEBOUNCE_MS = 150;

/**
 * Watches flows directories (non-recursively) and calls `onChange` once the
 * events have been quiet for `debounceMs`. A directory that does not exist
 * yet is awaited through its parent, so `mkdir flows` then adding a file
 * works without a restart.
 */
export function watchFlowDirs(
  dirs: readonly string[],
  onChange: () => void,
  logger: GflowLogger,
  debounceMs = FLOW_WATCH_DEBOUNCE_MS,
): FlowWatcher {
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const watchers = new Map<string, fs.FSWatcher>();
  const schedule = (): void => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (!closed) onChange();
    }, debounceMs);
    timer.unref();
  };
  const watch = (target: string, key: string, listener: (filename: string | null) => void): boolean => {
    try {
      const watcher = fs.watch(target, { persistent: false }, (_event, filename) =>
        listener(filename === null ? null : String(filename)),
      );
      watcher.on('error', (error) => logger.warn('mcp.flows.watch_error', { dir: target, error: String(error) }));
      watchers.set(key, watcher);
      return true;
    } catch {
      return false;
    }
  };
  const watchDir = (dir: string): void => {
    if (watch(dir, dir, schedule)) return;
    const parent = path.dirname(dir);
    const awaiting = `${dir} (parent)`;
    const ok = watch(parent, awaiting, (filename) => {
      if (closed || (filename !== null && filename !== path.basename(dir)) || !fs.existsSync(dir)) return;
      watchers.get(awaiting)?.close();
      watchers.delete(awaiting);
      watchDir(dir);
      schedule();
    });
    if (!ok) logger.debug('mcp.flows.watch_unavailable', { dir });
  };
  for (const dir of dirs) watchDir(path.resolve(dir));
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
