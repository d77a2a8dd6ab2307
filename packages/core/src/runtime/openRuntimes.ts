/**
 * The start tokens of this process's open runtimes. Two runtimes of one process may share a home
 * (a library holding a CLI-like and a daemon-like one, a test harness): each claims task rows with
 * its own token under the same pid, so "this pid, another token" is not a dead process that once
 * had this pid while that runtime is open. A runtime adds its token when it draws it and deletes
 * it when it closes; what its claims then say is decided by the other checks.
 */
const open = new Set<string>();

export const openRuntimes = {
  add(token: string): void {
    open.add(token);
  },
  delete(token: string): void {
    open.delete(token);
  },
  has(token: string): boolean {
    return open.has(token);
  },
};
