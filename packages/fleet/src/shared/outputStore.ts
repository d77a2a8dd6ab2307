import fs from 'node:fs';
import path from 'node:path';

/**
 * Where the fleet's files live, by key: the seam between the workers that write results and the
 * front door that serves them. A key is relative and '/'-separated (`images/2026-10-20/x.png`).
 *
 * Today one implementation: {@link MountedOutputStore}, a directory every machine mounts at the
 * same path (NFS, SMB, a cloud file share) that is each machine's GFLOW_CLI_OUTPUT_DIR; workers
 * write into it as they always do and publish the key. An object store (S3, GCS, Azure Blob) is
 * the next implementation of this interface and not built: its `put` would run after a worker's
 * atomic local write (the file stays the worker's until uploaded, then the key is published), and
 * its `open` would stream from the bucket — no caller changes.
 */
export interface OutputStore {
  readonly kind: 'mounted';
  /** The key of a file a worker wrote, or undefined when it lies outside the store (never published then). */
  keyOf(localPath: string): string | undefined;
  /** Makes the file the store's (a mounted store holds it already; an object store would upload it). */
  put(key: string, localPath: string): Promise<void>;
  /** The local path of a key, confined to the store (symlinks resolved); undefined when missing or outside. */
  localPath(key: string): string | undefined;
}

/** A directory every machine of the fleet mounts at the same path. */
export class MountedOutputStore implements OutputStore {
  readonly kind = 'mounted' as const;
  readonly #root: string;

  constructor(root: string) {
    this.#root = path.resolve(root);
  }

  keyOf(localPath: string): string | undefined {
    const relative = path.relative(this.#root, path.resolve(localPath));
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
    return relative.split(path.sep).join('/');
  }

  async put(key: string, localPath: string): Promise<void> {
    if (this.keyOf(localPath) !== key) throw new Error(`${localPath} is not the mounted store's file ${key}.`);
  }

  localPath(key: string): string | undefined {
    if (!/^[^/\\][^\\]*$/.test(key) || key.split('/').includes('..')) return undefined;
    const candidate = path.join(this.#root, ...key.split('/'));
    try {
      const real = fs.realpathSync(candidate);
      const realRoot = fs.realpathSync(this.#root);
      const inside = path.relative(realRoot, real);
      return inside === '' || inside.startsWith('..') || path.isAbsolute(inside) ? undefined : real;
    } catch {
      return undefined;
    }
  }
}
