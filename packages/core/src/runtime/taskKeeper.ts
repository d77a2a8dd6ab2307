import { AsyncLocalStorage } from 'node:async_hooks';
import type { TaskQueue, TaskRecord } from '@gflow/catalog';
import { type TaskOwner, ownerOf, workerLogFile } from '../jobs/queueOwner.js';
import {
  type ClaimantCheck,
  type PickedUpTask,
  type StrandedTaskRunner,
  pickUpStrandedTasks,
  settleDeadClaims,
} from '../jobs/strandedTasks.js';
import { awaitHandover, handoverNotice } from '../jobs/workerHandover.js';
import type { Logger } from './logger.js';
import type { JobLauncher, LaunchRequest, LaunchedWorker, TaskQueueKeeper } from './runtimeServices.js';

export interface TaskKeeperOptions {
  /** The queue port the tasks are read and settled through (this home's SQLite queue). */
  readonly queue: () => TaskQueue;
  readonly locksDir: string;
  readonly logger: Logger;
  /** Whether a claimant's process runs (the runtime knows its own start token). */
  readonly isAlive: ClaimantCheck;
  /** What this process does with stranded tasks; undefined: nothing (a library, a worker). */
  readonly runner: StrandedTaskRunner | undefined;
}

/**
 * The runtime's side of "a queued task always has a live owner" (issue 38): who answers for a
 * task, picking up the stranded ones (a CLI starts a worker, a server runs them), and a server's
 * periodic look. One per runtime; its pick-ups never overlap.
 */
export class TaskKeeper implements TaskQueueKeeper {
  readonly #options: TaskKeeperOptions;
  #picking: Promise<readonly PickedUpTask[]> | undefined;
  /** The workers this process started for stranded tasks, by profile, until they exit. */
  readonly #starting = new Map<string, LaunchedWorker>();
  readonly #runner: StrandedTaskRunner | undefined;

  constructor(options: TaskKeeperOptions) {
    this.#options = options;
    const inner = options.runner;
    this.#runner = inner && {
      who: (profile) => inner.who(profile),
      start: (profile, taskId) => {
        const worker = inner.start(profile, taskId) ?? undefined;
        if (worker) this.#starting.set(profile, worker);
        return worker;
      },
    };
  }

  /** A worker this process started for `profile` that still runs (starting, or draining the queue). */
  #startingFor(profile: string): LaunchedWorker | undefined {
    const worker = this.#starting.get(profile);
    if (worker?.hasExited() === false) return worker;
    this.#starting.delete(profile);
    return undefined;
  }

  get picksUp(): boolean {
    return this.#options.runner !== undefined;
  }

  async ownerOf(record: TaskRecord): Promise<TaskOwner> {
    const owner = await ownerOf(record, this.#options.locksDir, this.#options.isAlive);
    const starting =
      owner.state === 'none' && record.status === 'pending' ? this.#startingFor(record.profile) : undefined;
    return starting?.pid === undefined
      ? owner
      : { state: 'handing-over', by: { surface: 'worker', pid: starting.pid } };
  }

  pickUp(profile?: string): Promise<readonly PickedUpTask[]> {
    const runner = this.#runner;
    if (!runner)
      return Promise.resolve()
        .then(() => settleDeadClaims(this.#options.queue(), this.#options.isAlive, this.#options.logger))
        .then(() => []);
    // One look at a time: a look already under way has seen (or will see) what this one would.
    // (Started from a resolved promise: opening the catalog may throw, and that is this promise's.)
    this.#picking ??= Promise.resolve()
      .then(() =>
        pickUpStrandedTasks({
          ...this.#options,
          queue: this.#options.queue(),
          runner,
          profile,
          starting: (name) => this.#startingFor(name) !== undefined,
        }),
      )
      .finally(() => (this.#picking = undefined));
    return this.#picking;
  }

  /**
   * A server's look every `everyMs` (unref'd: it never keeps the process alive), so a task whose
   * worker died while the server runs is picked up without anyone asking. Returns the stop.
   */
  watch(everyMs: number): () => void {
    const look = (): void =>
      void this.pickUp().catch((error: unknown) =>
        this.#options.logger.warn('looking for stranded tasks failed', { error: String(error) }),
      );
    look();
    const timer = setInterval(look, everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}

/** One launch made during a call: what was asked, and the worker it started. */
interface Launch {
  readonly request: LaunchRequest;
  readonly worker: LaunchedWorker | undefined;
}

/**
 * The CLI's launches, followed to their handover: a call that hands a task to a detached worker
 * returns once a live process answers for it (jobs/workerHandover). The launcher is wrapped so
 * each launch is noted (the row names this process as the one handing it over, before the
 * worker starts) and collected in the call's async context.
 */
export class Handovers {
  readonly #calls = new AsyncLocalStorage<Launch[]>();
  readonly #launcher: JobLauncher;
  readonly #note: (request: LaunchRequest) => void;

  constructor(launcher: JobLauncher, note: (request: LaunchRequest) => void) {
    this.#launcher = launcher;
    this.#note = note;
  }

  /** The launcher handlers see. */
  readonly launcher: JobLauncher = {
    launch: (request) => {
      this.#note(request);
      const worker = this.#launcher.launch(request) ?? undefined;
      // A launcher that cannot watch its worker (a test's fake) is not followed.
      if (worker) this.#calls.getStore()?.push({ request, worker });
      return worker;
    },
  };

  /** Runs `fn`, then waits for each launch it made to be taken (or throws, naming the task). */
  async around<T>(
    fn: () => Promise<T>,
    keeper: { readonly queue: () => TaskQueue; readonly locksDir: string; readonly logger: Logger },
    signal: AbortSignal,
  ): Promise<T> {
    const launches: Launch[] = [];
    const result = await this.#calls.run(launches, fn);
    for (const { request, worker } of launches) {
      const handover = await awaitHandover({
        queue: keeper.queue,
        locksDir: keeper.locksDir,
        taskId: request.taskId,
        profile: request.profile,
        first: worker,
        relaunch: () => this.#launcher.launch(request) ?? undefined,
        logFile: workerLogFile(request.logsDir, request.profile),
        signal,
        onEvent: (message) => keeper.logger.warn(message, { task_id: request.taskId }),
      });
      const notice = handoverNotice(request.taskId, handover);
      if (notice) keeper.logger.info(notice, { task_id: request.taskId });
    }
    return result;
  }
}
