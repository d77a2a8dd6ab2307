import type { ProgressEvent } from './progressPhases.js';
import type { TaskInput } from './taskInput.js';

/** The jobs running in this process: their abort controllers, last progress and open questions. */
export interface RunningJob {
  readonly taskId: string;
  readonly controller: AbortController;
  readonly done: Promise<unknown>;
  lastProgress?: ProgressEvent;
  /** The questions the job waits on its client to answer (a job that never asks has none). */
  readonly input?: TaskInput;
}

export class JobRegistry {
  readonly #jobs = new Map<string, RunningJob>();

  add(job: RunningJob): void {
    this.#jobs.set(job.taskId, job);
    void job.done.finally(() => {
      if (this.#jobs.get(job.taskId) === job) this.#jobs.delete(job.taskId);
    });
  }

  get(taskId: string): RunningJob | undefined {
    return this.#jobs.get(taskId);
  }

  get size(): number {
    return this.#jobs.size;
  }

  /** Aborts every running job and waits for them to settle (server shutdown). */
  async cancelAll(reason = 'The server is shutting down.'): Promise<void> {
    const jobs = [...this.#jobs.values()];
    for (const job of jobs) job.controller.abort(new DOMException(reason, 'AbortError'));
    await Promise.allSettled(jobs.map((j) => j.done));
  }
}
