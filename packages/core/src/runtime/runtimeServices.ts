import type { Catalog, TaskQueue, TaskRecord } from '@gflow/catalog';
import type { FlowSession } from '@gflow/driver';
import type { TokenBucket } from '@gflow/lease/limits';
import type { HomeLayout } from '../home/homeLayout.js';
import type { ResolvedProfile } from '../home/profiles.js';
import type { BrowserOverrides } from '../jobs/browserLaunch.js';
import type { PickedUpTask, TaskOwner } from '../jobs/queueOwner.js';
import type { ThumbnailCache } from '../gallery/galleryFiles.js';
import type { ResolvedSettings } from '../settings/loadSettings.js';
import type { RunningJob } from './jobRegistry.js';
import type { FleetLink } from '../fleet/fleetLink.js';
import type { Logger } from './logger.js';
import type { ProgressEvent } from './progressPhases.js';

/** How a call uses a browser session: its signal, its progress, and what it does for other processes' messages. */
export interface SessionUse {
  readonly signal: AbortSignal;
  readonly onProgress?: ((event: ProgressEvent) => void) | undefined;
  /** What the call does, for other processes' messages; default: the running operation's title. */
  readonly activity?: string | undefined;
}

/** Browser sessions per profile, under the profile's queue and cross-process lease (the session pool). */
export interface BrowserSessions {
  /** Runs `fn` with the profile's browser session: the warm one, or one opened for the call. */
  withSession<T>(profile: ResolvedProfile, use: SessionUse, fn: (session: FlowSession) => Promise<T>): Promise<T>;
  /** Runs `fn` holding the profile's lease but no gflow browser (a sign-in window opens the profile itself). */
  withProfileExclusive<T>(profile: { name: string; dir: string }, use: SessionUse, fn: () => Promise<T>): Promise<T>;
}

/** What a background launch is given: the pending row's id and profile, and where its log goes. */
export interface LaunchRequest {
  readonly taskId: string;
  readonly profile: string;
  /** The logs directory of the runtime that queued it (the sandbox's own under --sandbox). */
  readonly logsDir: string;
}

/** A worker process a launch started, as far as the launcher can watch it. */
export interface LaunchedWorker {
  readonly pid: number | undefined;
  /** True once the process has exited (or failed to start). */
  hasExited(): boolean;
  /** Resolves when the process exits (or fails to start). */
  readonly exited: Promise<void>;
}

/**
 * Where a wait=false generation runs when not in this process: the CLI hands its row to a
 * detached `gflow worker run` that outlives the command. Without one, the job runs in this
 * process's background (MCP and HTTP servers, the library), for as long as the process lives.
 */
export interface JobLauncher {
  /**
   * Called once the task row is written (pending); throws when the job could not be handed over.
   * Returns the worker it started when it can watch it: the runtime then waits until a live
   * process answers for the task before the call returns (jobs/workerHandover).
   */
  launch(request: LaunchRequest): LaunchedWorker | void;
}

/**
 * Who answers for queued tasks, and what this process does with the ones nobody does
 * (jobs/queueOwner, jobs/strandedTasks). It never runs or claims a task itself.
 */
export interface TaskQueueKeeper {
  /** Who answers for the task now (running, queued behind a live worker, being handed over, nobody). */
  ownerOf(record: TaskRecord): Promise<TaskOwner>;
  /**
   * Settles dead processes' rows, then picks up the stranded tasks (of `profile`, or every
   * profile's): a CLI starts a worker, a server runs them; each is said on the log. Returns them.
   */
  pickUp(profile?: string): Promise<readonly PickedUpTask[]>;
  /** Whether pickUp starts anything in this process (false: a library, a worker). */
  readonly picksUp: boolean;
}

/**
 * What an operation may use of the runtime that runs it (`context.runtime`), and nothing more: no
 * way to run another operation, list them or close the runtime. The `Gflow` facade builds it;
 * tests can build one from fakes. Types only, from modules below the runtime and the operations,
 * so no import circle can pass through it.
 */
export interface RuntimeServices {
  readonly settings: ResolvedSettings;
  readonly layout: HomeLayout;
  readonly logger: Logger;
  /** Launch additions from whoever opened the runtime (the sandbox maps Google's hosts to the simulator). */
  readonly browserOverrides: BrowserOverrides;
  /**
   * The catalog, opened (and migrated) on first use. `run()` has loaded its code before a handler
   * runs, unless the operation declares `usesCatalog: false`.
   */
  readonly catalog: Catalog;
  /**
   * The task queue (runs, their steps, single generations): the catalog's own SQLite queue, or the
   * fleet's PostgreSQL queue when GFLOW_FLEET_URL is set. Every task row is read and written here,
   * never through `catalog.tasks`.
   */
  readonly queue: TaskQueue;
  /** The fleet this runtime is part of (GFLOW_FLEET_URL): routing, the shared catalog and store. Undefined on one machine. */
  readonly fleet?: FleetLink | undefined;
  readonly sessions: BrowserSessions;
  /** The spending brake (the surface policy says whether it applies). */
  readonly limiter: Pick<TokenBucket, 'tryTake'>;
  /** Generation jobs running in this process's background (tasks/cancel reaches them). */
  readonly jobs: { add(job: RunningJob): void };
  /** Runs wait=false generations outside this process (the CLI's worker); undefined: in this process. */
  readonly background?: JobLauncher | undefined;
  /**
   * Who answers for this home's queued tasks, and the picking up of those nobody does (by this
   * machine's worker locks and pids). Undefined on a fleet, whose workers answer for its rows.
   */
  readonly keeper?: TaskQueueKeeper | undefined;
  /** The claimant string this process writes on the task rows it runs. */
  claimantFor(profile: string): string;
  /** Writes the usage lines batched so far (a usage report reads them). */
  flushUsage(): void;
  /** The gallery's thumbnails (its browser starts on first need and closes with the runtime). */
  readonly thumbnails: ThumbnailCache;
}
