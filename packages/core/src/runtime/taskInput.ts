import { BadParameterError } from '@gflow/errors';

/** One question a running task puts to its client: the request, as the surface will show it (e.g. an MCP elicitation). */
export type InputRequest = Readonly<Record<string, unknown>>;

interface Open {
  readonly request: InputRequest;
  readonly answer: (value: unknown) => void;
}

/**
 * The questions a running task waits on its client to answer (the MCP Tasks extension shows them
 * as `input_required` with `inputRequests`, and `tasks/update` answers them). Held by the process
 * that runs the job, beside its abort controller: a question lives as long as the job that asked
 * it. A key names one question for the task's whole life: asking it twice is refused, and an
 * answer to a key that is not open (never asked, already answered) is ignored.
 */
export class TaskInput {
  readonly #open = new Map<string, Open>();
  readonly #asked = new Set<string>();

  /** Asks every question at once; resolves with each key's answer once all are answered (any order, any number of updates). */
  ask(requests: Readonly<Record<string, InputRequest>>, signal: AbortSignal): Promise<Record<string, unknown>> {
    const keys = Object.keys(requests);
    if (keys.length === 0) return Promise.resolve({});
    for (const key of keys) {
      if (this.#asked.has(key)) throw new BadParameterError(`The task already asked the question "${key}".`);
    }
    return new Promise((resolve, reject) => {
      const answers: Record<string, unknown> = {};
      const stop = (): void => {
        for (const key of keys) this.#open.delete(key);
        reject(signal.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError'));
      };
      if (signal.aborted) return stop();
      signal.addEventListener('abort', stop, { once: true });
      for (const key of keys) {
        this.#asked.add(key);
        this.#open.set(key, {
          request: requests[key] as InputRequest,
          answer: (value) => {
            answers[key] = value;
            if (keys.every((k) => k in answers)) {
              signal.removeEventListener('abort', stop);
              resolve(answers);
            }
          },
        });
      }
    });
  }

  /** The questions still open, by key (empty when the task waits on nothing). */
  open(): Record<string, InputRequest> {
    return Object.fromEntries([...this.#open].map(([key, open]) => [key, open.request]));
  }

  /** Answers the open questions among `responses`; the rest are ignored. Returns the keys it took. */
  answer(responses: Readonly<Record<string, unknown>>): string[] {
    const taken: string[] = [];
    for (const [key, value] of Object.entries(responses)) {
      const open = this.#open.get(key);
      if (!open) continue;
      this.#open.delete(key);
      taken.push(key);
      open.answer(value);
    }
    return taken;
  }
}
