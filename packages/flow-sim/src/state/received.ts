import type { ReceivedRpc, ServedPage } from '../types.js';

export const SUBMIT_RPC_IDS: readonly string[] = ['ogiZ0b', 'YhhmEf', 'eb1hJf', 'nprQif', 'MZZa6b', 'fZytfe'];

/** What the simulator received: every batchexecute call, in order. */
export class ReceivedLog {
  readonly #calls: ReceivedRpc[] = [];
  readonly #pages: ServedPage[] = [];
  readonly #held: string[] = [];

  push(call: ReceivedRpc): void {
    this.#calls.push(call);
  }

  /** Every batchexecute call, optionally only those of one rpc id. */
  calls(rpcId?: string): ReceivedRpc[] {
    return this.#calls.filter((c) => rpcId === undefined || c.rpcId === rpcId);
  }

  /** The generation submits (ogiZ0b, YhhmEf, eb1hJf, nprQif, MZZa6b, fZytfe). */
  submits(): ReceivedRpc[] {
    return this.#calls.filter((c) => SUBMIT_RPC_IDS.includes(c.rpcId));
  }

  /** Total credits charged by the calls recorded (refunds are not subtracted). */
  charged(email?: string): number {
    return this.#calls.filter((c) => email === undefined || c.email === email).reduce((sum, c) => sum + c.charged, 0);
  }

  /** Records a Flow document served (a page load: `goto`, a reload, a hard navigation). */
  pushPage(page: ServedPage): void {
    this.#pages.push(page);
  }

  /** Every Flow document served, in order: a client-side hop does not load one. */
  pages(): ServedPage[] {
    return [...this.#pages];
  }

  /** Records a request a test switch holds (held_sign_in), by path. */
  pushHeld(path: string): void {
    this.#held.push(path);
  }

  /** The paths of the requests a test switch held, in order (also once released). */
  held(): string[] {
    return [...this.#held];
  }

  clear(): void {
    this.#calls.length = 0;
    this.#pages.length = 0;
    this.#held.length = 0;
  }
}
