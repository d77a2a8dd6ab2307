import { FAILURE_NAMES } from '../types.js';
import type { FailureName, FailureOptions } from '../types.js';

interface ActiveFailure {
  options: FailureOptions;
  remaining: number;
}

/** Failure switches per account email (or '*' for every account). */
export class FailureBoard {
  readonly #byScope = new Map<string, Map<FailureName, ActiveFailure>>();
  readonly #whenOff = new Set<() => void>();

  set(scope: string, name: FailureName, options: FailureOptions = {}): void {
    if (!(FAILURE_NAMES as readonly string[]).includes(name)) throw new TypeError(`unknown failure switch: ${name}`);
    const scoped = this.#byScope.get(scope) ?? new Map<FailureName, ActiveFailure>();
    scoped.set(name, { options, remaining: options.times ?? Number.POSITIVE_INFINITY });
    this.#byScope.set(scope, scoped);
  }

  clear(scope?: string, name?: FailureName): void {
    if (scope === undefined) {
      this.#byScope.clear();
      this.#wakeWaiters();
      return;
    }
    if (name === undefined) this.#byScope.delete(scope);
    else this.#byScope.get(scope)?.delete(name);
    this.#wakeWaiters();
  }

  /** Resolves once the switch is off for `email` (a test cleared it): what a held request waits for. */
  whenOff(email: string | null, name: FailureName): Promise<void> {
    return new Promise((resolve) => {
      const check = (): void => {
        if (this.#find(email, name) !== undefined) return;
        this.#whenOff.delete(check);
        resolve();
      };
      this.#whenOff.add(check);
      check();
    });
  }

  #wakeWaiters(): void {
    for (const check of [...this.#whenOff]) check();
  }

  #find(email: string | null, name: FailureName, rpcId?: string): ActiveFailure | undefined {
    for (const scope of [email ?? '', '*']) {
      const hit = this.#byScope.get(scope)?.get(name);
      if (hit === undefined || hit.remaining <= 0) continue;
      if (rpcId !== undefined && hit.options.rpcIds !== undefined && !hit.options.rpcIds.includes(rpcId)) continue;
      return hit;
    }
    return undefined;
  }

  /** Is the switch on (without using up one of its `times`)? */
  peek(email: string | null, name: FailureName, rpcId?: string): FailureOptions | null {
    return this.#find(email, name, rpcId)?.options ?? null;
  }

  /** Is the switch on? Uses up one of its `times`. */
  take(email: string | null, name: FailureName, rpcId?: string): FailureOptions | null {
    const hit = this.#find(email, name, rpcId);
    if (hit === undefined) return null;
    hit.remaining -= 1;
    return hit.options;
  }

  list(): { scope: string; name: FailureName; options: FailureOptions }[] {
    const out: { scope: string; name: FailureName; options: FailureOptions }[] = [];
    for (const [scope, m] of this.#byScope)
      for (const [name, f] of m) if (f.remaining > 0) out.push({ scope, name, options: f.options });
    return out;
  }
}
