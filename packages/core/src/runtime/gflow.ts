import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type { Catalog, TaskQueue, TaskRecord } from '@gflow/catalog';
import type { z } from 'zod';
import { formatClaimant } from '@gflow/catalog/claimant';
import {
  BadParameterError,
  CancelledError,
  ConfigurationError,
  registerMaskedErrorLog,
  toErrorEnvelopeBody,
} from '@gflow/errors';
import { type KeyedQueue, type TokenBucket, createKeyedQueue, createTokenBucket } from '@gflow/lease/limits';
import { homeLayout, type HomeLayout } from '../home/homeLayout.js';
import type { Operation } from '../operations/operation.js';
import type { OperationContext } from './operationContext.js';
import type { NameOf, NamedIn, OperationEntry, OperationShape, RegisteredOperation } from '../operations/registry.js';
import {
  type LoadSettingsOptions,
  type ResolvedSettings,
  type SettingSource,
  loadSettings,
} from '../settings/loadSettings.js';
import type { BrowserOverrides } from '../jobs/browserLaunch.js';
import { SessionPool } from '../jobs/sessionPool.js';
import { type ThumbnailCache, createThumbnailCache } from '../gallery/galleryFiles.js';
import type { DrainReport } from '../jobs/taskWorker.js';
import { claimantProcess, workerLockName, workerLogFile } from '../jobs/queueOwner.js';
import type { StrandedTaskRunner } from '../jobs/strandedTasks.js';
import { badParameterFromZod, refuseUnknownArguments } from './badParameterFromZod.js';
import { CatalogLoader } from './catalogLoader.js';
import { errorLogFile } from './errorLogFile.js';
import { JobRegistry } from './jobRegistry.js';
import { OperationTable } from './operationTable.js';
import { openRuntimes } from './openRuntimes.js';
import { assertSupportedNode } from './nodeSupport.js';
import { failureOf } from './orThrow.js';
import { WarmUp } from './warmUp.js';
import { type LogSink, type Logger, createLogger, effectiveLogLevel } from './logger.js';
import { onRunScale } from './progressPhases.js';
import { type ImageCalls, type OperationRunner, type VideoCalls, imageCalls, videoCalls } from './operationFacade.js';
import type { RunOptions } from './runOptions.js';
import type { JobLauncher, RuntimeServices } from './runtimeServices.js';
import { SURFACE_POLICY, type Surface } from './surfacePolicy.js';
import { createTaskService, loadRunViews } from './taskServiceImpl.js';
import { Handovers, TaskKeeper } from './taskKeeper.js';
import type { TaskService } from './taskService.js';
import { UsageRecorder } from './usageRecorder.js';
import type { FleetLink } from '../fleet/fleetLink.js';
import type { FleetServeReport } from '../fleet/fleetWorker.js';

export type { RunOptions } from './runOptions.js';

/** How to build a runtime: where settings come from (`env`, `cwd`, `flags`), the surface it serves, and launch additions. */
export interface CreateGflowOptions extends LoadSettingsOptions {
  /** The surface the runtime serves (`SURFACE_POLICY` says what each implies); default `library`. */
  readonly surface?: Surface;
  /** Settings already loaded (skips loading). */
  readonly settings?: ResolvedSettings;
  /** Browser launch additions (the sandbox maps Google's hosts to the simulator here). */
  readonly browser?: BrowserOverrides;
  /** Keep browser sessions warm between calls; default: the surface policy (MCP and HTTP yes, CLI and library no). */
  readonly keepSessionsWarm?: boolean;
  readonly logger?: Logger;
  /** Where the runtime's own logger writes (default stderr); see LogSink. */
  readonly logSink?: LogSink;
  /**
   * A background worker's runtime (`gflow worker run`): its claims and lease say `worker`, its
   * browser stays warm between tasks, and it waits for a busy profile like a server (180 s unless
   * GFLOW_CLI_LEASE_WAIT_SECONDS says otherwise).
   * @internal
   */
  readonly worker?: boolean;
  /** Where wait=false generations run instead of this process's background (the CLI's detached worker). @internal */
  readonly background?: JobLauncher;
  /**
   * Reject instead of resolving a failure envelope: when an operation resolves with a failure
   * status (`failed`, `cancelled`, `indeterminate`, `rate_limited`, … with its `error`), `run`
   * throws the typed `GflowError` that `error` describes (see `orThrow`). Default false: failures
   * inside Flow resolve with `{status, error}`, as every surface reports them.
   */
  readonly throwOnFailure?: boolean;
}

/** How often a server looks for stranded tasks (a worker that died while it runs). */
const STRANDED_WATCH_MS = 15_000;

/** The calls after which the CLI looks for stranded tasks: those on a profile (a browser) and the task reads. */
function looksForStranded(operation: Operation): boolean {
  return operation.usesBrowser || ['listTasks', 'showTask', 'waitTask'].includes(operation.name);
}

const SOURCE_WORDS: Readonly<Record<SettingSource, string>> = {
  flag: 'the flags',
  env: 'the environment',
  'cwd-dotenv': './.env',
  'home-dotenv': "the home's .env",
  default: 'the defaults',
};

/**
 * What an operation resolves with when its signal was aborted before it started: its `cancelled`
 * envelope when its output takes one (the generations), else the `CancelledError` is thrown.
 */
function cancelledBeforeStart(operation: Operation): unknown {
  const error = new CancelledError(
    'Cancelled before it started (the signal was already aborted); nothing was sent to Flow.',
  );
  const envelope = { status: 'cancelled', error: toErrorEnvelopeBody(error) };
  if (operation.output.safeParse(envelope).success) return envelope;
  throw error;
}

/**
 * The embeddable library and the runtime every surface shares: settings, the home, and the
 * operations (`run`, `runByName`, `operations()`), with the tasks of `wait: false` generations
 * (`tasks`). What it needs opens lazily on first use — the local catalog (SQLite), the profile
 * lease, the browser — so a read of the model list opens none of them; `close()` (or `await using`)
 * closes what was opened. `createGflow()` builds one; `@gflow/core/testing` has a fake of it.
 *
 * Calls on one profile run one after another, in the order they were made (one browser session
 * and one lease per profile); calls on different profiles run side by side.
 *
 * `O` is the operations it was built with: gflow's own (`createGflow`), whose names `run` takes
 * (`OperationName`); its default also fits a runtime built with other operations (gflow's tests).
 */
export class Gflow<O extends OperationShape = RegisteredOperation | OperationShape> {
  /** The settings it runs with, every default applied, and where each explicit value came from. */
  readonly settings: ResolvedSettings;
  /** Where its home's files are (catalog, profiles, locks, config.toml). */
  readonly layout: HomeLayout;
  /** The surface it serves (`library` unless `createGflow` was told otherwise). */
  readonly surface: Surface;
  /** Generation jobs running in this process. @internal */
  readonly jobs = new JobRegistry();
  /** Per-profile FIFO: calls on one profile inside this process run one at a time. @internal */
  readonly profileQueue: KeyedQueue = createKeyedQueue();
  /** The tasks of the queue (`wait: false` generations): `get(id)`, `cancel(id)`, `update(id, answers)`. */
  readonly tasks: TaskService;
  /** Images, typed: `images.generate(input)` is `run('generateImage', input)`, `images.batch` is `generateBatch`. */
  readonly images: ImageCalls;
  /**
   * Videos, typed: `videos.generate` (`generateVideo`), `.extend` (`extendVideo`), `.chain`
   * (`generateChain`), `.movie` (`makeMovie`) and `.stitch` (`stitchVideos`), each a call of {@link run}.
   */
  readonly videos: VideoCalls;
  /** @internal */
  readonly browserOverrides: BrowserOverrides;
  /** The logger operations write through (`createGflow({ logger })`, else structured lines on stderr). */
  readonly logger: Logger;
  /** @internal */
  readonly sessions: SessionPool;
  /** The gallery's thumbnail cache (a profile-less browser, started on first need). @internal */
  readonly thumbnails: ThumbnailCache;
  /** A background worker's runtime (CreateGflowOptions.worker). @internal */
  readonly worker: boolean;
  /** Where wait=false generations go (the CLI's detached worker, followed to its handover). @internal */
  readonly background: JobLauncher | undefined;
  /**
   * Who answers for this home's queued tasks; picks up the stranded ones as the surface policy
   * says. Idle on a fleet (its workers and pg-boss answer for its rows). @internal
   */
  readonly keeper: TaskKeeper;
  /** The start token, drawn on first use (node:crypto loads then): a static read never draws it. */
  readonly #startToken = memoized(() => {
    const token = randomBytes(6).toString('hex');
    openRuntimes.add(token);
    this.onClose(() => openRuntimes.delete(token));
    return token;
  });
  #limiter: TokenBucket | undefined;
  readonly #operations: OperationTable;
  /** The operation whose handler runs in the current async context (jobs it starts included). */
  readonly #running = new AsyncLocalStorage<Operation>();
  readonly #closers: Array<() => Promise<void> | void> = [];
  readonly #warmUp = new WarmUp();
  readonly #catalogs: CatalogLoader;
  readonly #usage: UsageRecorder;
  readonly #handovers: Handovers | undefined;
  /** The CLI looks for stranded tasks once per run of gflow; a server watches (stopped on close). */
  #lookedForStranded = false;
  #closing = false;
  #stopWatching: (() => void) | undefined;
  /** What handlers get as `context.runtime`. */
  readonly #services: RuntimeServices;
  /** The profiles this process already reminded of a stale live check (said once each). */
  readonly #reminded = new Set<string>();
  readonly #throwOnFailure: boolean;
  /** The fleet (GFLOW_FLEET_URL), opened by `ready()`; undefined on one machine. */
  #fleet: FleetLink | undefined;
  #fleetOpening: Promise<FleetLink> | undefined;

  /**
   * `operations`: definitions, or registry entries whose modules load on first use (`createGflow`
   * passes the registry's).
   */
  constructor(options: CreateGflowOptions, operations: readonly (O | OperationEntry<O>)[]) {
    // Before anything else: on an older Node the catalog's native addon crashes the process.
    assertSupportedNode();
    this.settings = options.settings ?? loadSettings(options);
    this.layout = homeLayout(this.settings.home, this.settings.configHome);
    this.surface = options.surface ?? 'library';
    this.browserOverrides = options.browser ?? {};
    if (this.settings.sandbox && this.browserOverrides.sandbox !== true) {
      // Fail safe: a user who set the sandbox switch must never reach the real Flow by accident.
      throw new ConfigurationError(
        `The sandbox is asked for (GFLOW_CLI_SANDBOX=true in ${SOURCE_WORDS[this.settings.sources.sandbox ?? 'flag']}), but this runtime was not opened by the sandbox and would talk to the real flow.google.com; nothing was started.`,
        {
          remediationHint:
            'Run the gflow binary with --sandbox (it honours GFLOW_CLI_SANDBOX=true), or unset GFLOW_CLI_SANDBOX to use the real Flow.',
        },
      );
    }
    const sink = options.logSink;
    this.logger =
      options.logger ??
      createLogger({
        level: effectiveLogLevel(this.settings.logLevel, this.settings.sources.logLevel !== undefined, sink),
        format: this.settings.logFormat,
        ...(sink ? { write: (line: string) => sink.write(line), isTTY: sink.isTTY } : {}),
      });
    this.worker = options.worker === true;
    this.#throwOnFailure = options.throwOnFailure === true;
    this.#handovers = options.background
      ? new Handovers(options.background, (request) => {
          // The embedded queue writes when called: the row names this process before the worker starts.
          this.queue
            .noteHandover(request.taskId, this.claimantFor(request.profile))
            .catch((error: unknown) =>
              this.logger.debug('noting the handover failed', { task_id: request.taskId, error: String(error) }),
            );
        })
      : undefined;
    this.background = this.#handovers?.launcher;
    this.sessions = new SessionPool({
      surface: this.surface,
      settings: this.settings,
      locksDir: this.layout.locksDir,
      logger: this.logger,
      browser: this.browserOverrides,
      queue: this.profileQueue,
      keepWarm: options.keepSessionsWarm ?? (this.worker || SURFACE_POLICY[this.surface].keepWarm),
      ...(this.worker ? { leaseWait: 'server' as const, leaseHolder: 'worker' } : {}),
      runningOperation: () => this.currentOperation,
      holderTask: (profile, holder) => this.#taskOf(profile, holder.pid),
    });
    // Errors masked while this runtime is open keep their details in its home (errorLogFile.ts);
    // registered first, so it is removed last, after whatever closing may throw.
    this.onClose(registerMaskedErrorLog(errorLogFile(this.layout)));
    this.onClose(() => this.sessions.closeAll());
    this.thumbnails = createThumbnailCache(this.settings, this.layout);
    this.onClose(() => this.thumbnails.close());
    const startToken = this.#startToken;
    this.#catalogs = new CatalogLoader({
      path: this.settings.dbPath,
      historyPrompts: this.settings.historyPrompts,
      // Read when the catalog opens: a run that never opens it never draws the token.
      get startToken() {
        return startToken();
      },
      onOpen: (catalog) => this.#usage.ingestJournal(catalog),
      busyTimeoutMs: this.settings.catalogBusySeconds * 1000,
      locksDir: this.layout.locksDir,
      logger: this.logger,
    });
    this.keeper = new TaskKeeper({
      queue: () => this.queue,
      locksDir: this.layout.locksDir,
      logger: this.logger,
      isAlive: (claimant) => this.#catalogs.isAlive(claimant),
      runner: this.#strandedRunner(options.background),
    });
    this.#usage = new UsageRecorder({ surface: this.surface, layout: this.layout, catalogs: this.#catalogs });
    this.tasks = createTaskService(() => this.queue, this.jobs);
    // The facade's one door is run's: runByName is what run calls (its types are the facade's own).
    const run = ((name, input, options) => this.runByName(name, input, options)) as OperationRunner;
    this.images = imageCalls(run);
    this.videos = videoCalls(run);
    this.#services = servicesOf(this);
    this.#operations = new OperationTable(operations as readonly unknown[] as readonly (Operation | OperationEntry)[]);
  }

  /**
   * The spending brake of the surfaces whose policy says `rateLimit` (MCP, HTTP), made on first
   * use (its clock is `performance`, whose module a static read never loads). @internal
   */
  get limiter(): TokenBucket {
    return (this.#limiter ??= createTokenBucket({
      capacity: this.settings.rateLimitCapacity,
      refillMs: this.settings.rateLimitRefillSeconds * 1000,
    }));
  }

  /** Distinguishes this process's claims from a dead one's with a reused pid. @internal */
  get startToken(): string {
    return this.#startToken();
  }

  /**
   * Loads every operation's definition (every zod schema is built): what a full listing needs
   * ({@link operations}). Importing `@gflow/core` has done it already; a runtime made through
   * `@gflow/core/surfaces` (gflow's CLI) loads each operation when it first runs it.
   */
  async loadOperations(): Promise<this> {
    await this.#operations.loadAll();
    return this;
  }

  /**
   * The operations this runtime offers on a surface (no-spend removes the spending ones). Every
   * operation must be loaded ({@link loadOperations}).
   */
  operations(surface: Surface = this.surface): Operation[] {
    return this.#operations
      .all()
      .filter(
        (op) => !(this.settings.noSpend && op.kind === 'spend') && (!op.surfaces || op.surfaces.includes(surface)),
      );
  }

  /** The operation of this name (either form) when this runtime offers it; it must be loaded. */
  operation(name: string): Operation | undefined {
    const op = this.#operations.get(name);
    if (!op || (this.settings.noSpend && op.kind === 'spend')) return undefined;
    return op;
  }

  /**
   * Runs an operation by name (`generateImage` or its MCP name `gflow_generate_image`) with its
   * input, validated by its schema: a bad value throws a `BadParameterError` naming the parameter.
   * The name is one of `OperationName` (a misspelling does not compile); it types `input` (the
   * operation's zod input) and the result (its zod output). A name only known at run time goes
   * through {@link runByName}. A failure inside Flow resolves with its envelope
   * (`{status: "failed" | "cancelled" | "indeterminate", error}`) unless `throwOnFailure` is on,
   * and a signal already aborted resolves `cancelled` (or throws a `CancelledError`) at once.
   */
  async run<N extends NameOf<O>>(
    name: N,
    input: z.input<NamedIn<O, N>['input']>,
    options: RunOptions = {},
  ): Promise<z.output<NamedIn<O, N>['output']>> {
    return (await this.runByName(name, input, options)) as z.output<NamedIn<O, N>['output']>;
  }

  /**
   * {@link run} for a name only known at run time (an adapter's tool or command name, a flow's
   * step): takes and returns `unknown`, validated at run time the same way; an unknown name throws
   * a `BadParameterError`.
   */
  async runByName(name: string, input: unknown, options: RunOptions = {}): Promise<unknown> {
    await this.#operations.load(name);
    const operation = this.#offered(name);
    refuseUnknownArguments(operation.input, input);
    const parsed = operation.input.safeParse(input ?? {});
    if (!parsed.success) throw badParameterFromZod(parsed.error);
    const throwOnFailure = options.throwOnFailure ?? this.#throwOnFailure;
    const settle = (result: unknown): unknown => {
      const failure = throwOnFailure ? failureOf(result) : undefined;
      if (failure) throw failure;
      return result;
    };
    if (options.signal?.aborted) return settle(cancelledBeforeStart(operation));
    if (operation.usesCatalog !== false) await this.ready();
    // A run's scale (steps out of steps) is read before it starts: the row it resumes is the queue's.
    const steps = options.onProgress && operation.steps ? await operation.steps(parsed.data, this.queue) : undefined;
    const onProgress = onRunScale(options.onProgress, () => steps);
    await this.#warmUp.wait(onProgress, options.signal);
    if (operation.kind === 'spend') await this.#remindFlowCheck(parsed.data);
    if (looksForStranded(operation) && this.surface === 'cli' && !this.#lookedForStranded && this.#keeps) {
      this.#lookedForStranded = true;
      // A look that fails (a damaged catalog) never fails the command: it meets its own errors.
      await this.keeper
        .pickUp()
        .catch((error: unknown) => this.logger.debug('looking for stranded tasks failed', { error: String(error) }));
    }
    const context: OperationContext = {
      runtime: this.#services,
      surface: this.surface,
      signal: options.signal ?? new AbortController().signal,
      ...(onProgress ? { onProgress } : {}),
      operation: operation.mcpName,
    };
    const call = (): Promise<unknown> => this.#running.run(operation, () => operation.handler(parsed.data, context));
    try {
      const result = this.#handovers
        ? await this.#handovers.around(call, this.#handoverServices(), context.signal)
        : await call();
      return settle(result);
    } catch (error) {
      // SQLite's own errors (a busy or read-only catalog) reach every surface as gflow's.
      throw await this.#catalogs.explain(error);
    }
  }

  /** The operation a name stands for on this runtime, or the error that says why there is none. */
  #offered(name: string): Operation {
    const operation = this.operation(name);
    if (operation) return operation;
    const hidden = this.#operations.get(name);
    if (hidden?.kind === 'spend' && this.settings.noSpend) {
      throw new ConfigurationError(
        `${hidden.name} spends credits and no-spend mode is on (GFLOW_MCP_NO_SPEND / --no-spend).`,
        {
          remediationHint: 'Unset GFLOW_MCP_NO_SPEND (or drop --no-spend) to generate.',
        },
      );
    }
    throw new BadParameterError(`Unknown operation "${name}".`);
  }

  /** Before a paid run: one line when the profile's last free live check is stale (GFLOW_CLI_FLOW_CHECK_REMINDER). */
  async #remindFlowCheck(input: Record<string, unknown>): Promise<void> {
    // Loaded here: only a paid run reads the record (and builds its schema).
    const { flowCheckReminder } = await import('../health/flowCheckReminder.js');
    const reminder = flowCheckReminder(this.layout, this.settings, input);
    if (reminder === null || this.#reminded.has(reminder.profile)) return;
    this.#reminded.add(reminder.profile);
    this.logger.warn(reminder.line);
  }

  /**
   * Starts work this runtime must finish before it runs an operation (the sandbox's sign-in on a
   * server), without waiting for it: every `run` waits for it instead, reporting the wait as
   * progress (`starting-browser` with `label`), and one that failed is started again by the next
   * call. A server can answer its client at once.
   * @internal
   */
  warmUp(label: string, start: () => Promise<void>): void {
    this.#warmUp.begin(label, start);
  }

  /**
   * The operation being run in the current async context, if any: what a held
   * profile lease says this process is doing ("Generate images
   * (gflow_generate_image)") in other processes' messages.
   * @internal
   */
  get currentOperation(): Operation | undefined {
    return this.#running.getStore();
  }

  /**
   * Loads the catalog's code so that {@link catalog} can open the database.
   * `run()` does this itself for every operation that may use the catalog;
   * code that reads `gflow.catalog` directly awaits it first. Idempotent.
   * @internal
   */
  async ready(): Promise<this> {
    await Promise.all([this.#catalogs.ready(), loadRunViews()]);
    if (this.settings.fleetUrl !== undefined && this.#fleet === undefined) this.#fleet = await this.#openFleet();
    // A server answers for stranded tasks from its start, not from its first call (it may get none).
    if (this.#keeps && this.keeper.picksUp && SURFACE_POLICY[this.surface].strandedTasks === 'run-here')
      this.#stopWatching ??= this.keeper.watch(STRANDED_WATCH_MS);
    return this;
  }

  /** Opens the fleet once (a failed opening is tried again by the next `ready()`). */
  #openFleet(): Promise<FleetLink> {
    this.#fleetOpening ??= import('../fleet/fleetLink.js')
      .then(({ openFleetLink }) =>
        openFleetLink(this.settings, {
          role: this.worker ? 'worker' : 'client',
          workerId: this.startToken,
          logger: this.logger,
        }),
      )
      .then((link) => {
        this.onClose(() => link.fleet.close());
        return link;
      })
      .catch((error: unknown) => {
        this.#fleetOpening = undefined;
        throw error;
      });
    return this.#fleetOpening;
  }

  /** The fleet this runtime is part of (GFLOW_FLEET_URL), after {@link ready}; undefined on one machine. @internal */
  get fleet(): FleetLink | undefined {
    return this.#fleet;
  }

  /**
   * The catalog, opened (and migrated) on first use, after {@link ready}.
   * Opening settles the task rows a dead process left `working`
   * (`indeterminate` when it may have spent credits, else `failed`) and
   * takes in the usage lines journaled while it was closed.
   * @internal
   */
  get catalog(): Catalog {
    return this.#catalogs.catalog;
  }

  /**
   * The task queue every task row goes through (RuntimeServices.queue): the catalog's SQLite
   * queue, opened with the catalog on first use.
   * @internal
   */
  get queue(): TaskQueue {
    if (this.settings.fleetUrl === undefined) return this.#catalogs.queue;
    if (this.#fleet === undefined)
      throw new Error('gflow.queue was read before `await gflow.ready()` opened the fleet.');
    return this.#fleet.queue;
  }

  /** The claimant string this process writes on the task rows it runs. @internal */
  claimantFor(profile: string): string {
    return formatClaimant({
      surface: this.worker ? 'worker' : this.surface,
      profile,
      pid: process.pid,
      startToken: this.startToken,
    });
  }

  /**
   * The background worker's loop on one profile's task queue (drainTaskQueue): one worker per
   * profile (its lock in the home's locks/), the profile's lease before each claim, the tasks run
   * one by one in their operation's context (the lease names it to other processes), and back
   * once the queue has stayed empty for `idleSeconds`. Stopping the signal cancels the running job.
   * @internal
   */
  async drainQueue(
    profile: string,
    options: {
      readonly signal?: AbortSignal;
      readonly idleSeconds?: number;
      readonly pollMs?: number;
      readonly onEvent?: (event: string, fields: Readonly<Record<string, unknown>>) => void;
    } = {},
  ): Promise<DrainReport> {
    await this.ready();
    // The worker's code loads here: a runtime that never drains a queue never loads it.
    const [{ tryNamedLock }, { drainTaskQueue }] = await Promise.all([
      import('@gflow/lease'),
      import('../jobs/taskWorker.js'),
    ]);
    return drainTaskQueue(this.#services, {
      profile,
      signal: options.signal ?? new AbortController().signal,
      idleMs: (options.idleSeconds ?? 5) * 1000,
      ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      tryLock: () =>
        tryNamedLock(this.layout.locksDir, workerLockName(profile), {
          profileName: profile,
          surface: this.worker ? 'worker' : SURFACE_POLICY[this.surface].leaseHolder,
          activity: { state: 'idle' },
        }),
      runTask: (record, signal) => this.#runClaimedTask(record, signal, { releaseOnStop: true }),
    });
  }

  /**
   * A claimed row (a generation or a run) run to its end in its operation's context (the lease
   * names it). `releaseOnStop`: a stop of this process before the submit gives the row back to the
   * queue (a drain worker's); a fleet worker's stop settles it as its checkpoint says.
   */
  async #runClaimedTask(
    record: TaskRecord,
    signal: AbortSignal,
    options: { readonly releaseOnStop: boolean },
  ): Promise<unknown> {
    const [{ runClaimedGeneration }, { isRunPayload, runClaimedRun }] = await Promise.all([
      import('../generation/index.js'),
      import('../runs/index.js'),
    ]);
    const services = this.#services;
    const { releaseOnStop } = options;
    const kind = (record.payload as { kind?: unknown; run?: unknown }).kind;
    const run = (): Promise<unknown> =>
      isRunPayload(record.payload)
        ? runClaimedRun(services, record, { signal, releaseOnStop })
        : runClaimedGeneration(services, record, { signal, releaseOnStop });
    const runKind = (record.payload as { run?: unknown }).run;
    const name = isRunPayload(record.payload)
      ? runKind === 'chain'
        ? 'generateChain'
        : runKind === 'story'
          ? 'makeMovie'
          : 'generateBatch'
      : kind === 'video'
        ? 'generateVideo'
        : kind === 'extend'
          ? 'extendVideo'
          : 'generateImage';
    const operation = await this.#operations.load(name);
    return operation ? this.#running.run(operation, run) : run();
  }

  /**
   * The fleet worker (`gflow worker --fleet`): serves the given profiles' queues on the fleet until
   * `signal` aborts (see serveFleet). Each task runs as the drain worker runs one.
   * @internal
   */
  async serveFleet(options: {
    /** Default: every profile signed in in this home. */
    readonly profiles?: readonly string[];
    readonly signal: AbortSignal;
    readonly onEvent?: (event: string, fields?: Readonly<Record<string, unknown>>) => void;
  }): Promise<FleetServeReport> {
    await this.ready();
    const { serveFleet, signedInProfiles, poolsOfSetting } = await import('../fleet/fleetWorker.js');
    return serveFleet(this.#services, {
      profiles: options.profiles ?? signedInProfiles(this.layout),
      poolsOf: poolsOfSetting(this.settings.fleetPools ?? []),
      signal: options.signal,
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      runTask: (record, signal) => this.#runClaimedTask(record, signal, { releaseOnStop: false }),
    });
  }

  /**
   * Records one invocation for gflow_usage_stats (unless `gflow telemetry
   * off`); never fails the call. Servers and library runtimes batch their
   * lines in memory for up to a second ({@link flushUsage}). A CLI run
   * records straight into an open catalog; when its catalog is closed (a
   * static read such as `gflow models`), or before the catalog's code is
   * loaded, the line goes to a small journal in the home instead, which the
   * next opening of the catalog takes in.
   * @internal
   */
  recordUsage(command: string, profile?: string, outcome: 'ok' | 'error' = 'ok'): void {
    this.#usage.record(command, profile, outcome);
  }

  /**
   * Writes the usage lines this runtime has batched (at most a second old) in
   * one transaction, and takes in what CLI runs journaled meanwhile.
   * @internal
   */
  flushUsage(): void {
    this.#usage.flush();
  }

  /** The SQL text of the catalog schema (gflow://db/schema). @internal */
  async schemaSql(): Promise<string> {
    return this.#catalogs.schemaSql();
  }

  /** Registers cleanup for a lazily opened service. */
  onClose(closer: () => Promise<void> | void): void {
    this.#closers.push(closer);
  }

  /**
   * What this runtime does with a stranded task (SURFACE_POLICY.strandedTasks): the CLI starts a
   * worker through its launcher, a server drains the profile's queue in its own background; a
   * worker and a library leave it to the next CLI or server.
   */
  #strandedRunner(launcher: JobLauncher | undefined): StrandedTaskRunner | undefined {
    const policy = SURFACE_POLICY[this.surface].strandedTasks;
    // No-spend mode runs nothing that spends: a stranded generation waits for another process.
    if (this.worker || policy === 'leave' || this.settings.noSpend) return undefined;
    if (policy === 'run-here')
      return {
        who: () => `this server (gflow ${SURFACE_POLICY[this.surface].leaseHolder}, pid ${process.pid})`,
        start: (profile) => this.#drainHere(profile),
      };
    if (!launcher) return undefined;
    const logsDir = this.layout.logsDir;
    return {
      who: (profile) => `a new background worker (its log: ${workerLogFile(logsDir, profile)})`,
      start: (profile, taskId) => launcher.launch({ taskId, profile, logsDir }),
    };
  }

  /** A server runs a profile's stranded tasks itself: its queue drained in this process's background (tasks/cancel and close stop it). */
  #drainHere(profile: string): void {
    const key = `queue:${profile}`;
    if (this.#closing || this.jobs.get(key)) return;
    const controller = new AbortController();
    const onEvent = (event: string, fields: Readonly<Record<string, unknown>>): void =>
      this.logger.info(`stranded tasks: ${event}`, { ...fields });
    const done = this.drainQueue(profile, { signal: controller.signal, onEvent }).catch((error: unknown) =>
      this.logger.error('draining stranded tasks failed', { profile, error: String(error) }),
    );
    this.jobs.add({ taskId: key, controller, done });
  }

  /** The task a process runs on a profile, by the working rows it claimed (the oldest: a server's later ones wait behind it). */
  async #taskOf(profile: string, pid: number): Promise<string | undefined> {
    if (!this.#catalogs.loaded) return undefined;
    const working = (await this.queue.list({ profile, status: 'working', limit: 100 })).items;
    return working.filter((record) => claimantProcess(record.claimant)?.pid === pid).at(-1)?.taskId;
  }

  #handoverServices(): { queue: () => TaskQueue; locksDir: string; logger: Logger } {
    return { queue: () => this.queue, locksDir: this.layout.locksDir, logger: this.logger };
  }

  /** Whether this runtime's keeper answers for its tasks: on one machine; a fleet's workers do on a fleet. */
  get #keeps(): boolean {
    return this.settings.fleetUrl === undefined;
  }

  /** Cancels running jobs (settled as the worker sees fit), closes services and the catalog. */
  async close(): Promise<void> {
    this.#closing = true;
    this.#stopWatching?.();
    await this.jobs.cancelAll();
    this.flushUsage();
    const closers = this.#closers.splice(0).reverse();
    for (const closer of closers) await closer();
    this.#catalogs.close();
  }

  /** `await using gflow = createGflow()`: closes the runtime at the end of the block ({@link close}). */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

/** `make`, called once, on the first call. */
function memoized<T>(make: () => T): () => T {
  let made: { readonly value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** The services a handler may use, read through to the runtime (the catalog opens on first use). */
function servicesOf(gflow: Gflow): RuntimeServices {
  return Object.freeze({
    settings: gflow.settings,
    layout: gflow.layout,
    logger: gflow.logger,
    browserOverrides: gflow.browserOverrides,
    get catalog(): Catalog {
      return gflow.catalog;
    },
    get queue(): TaskQueue {
      return gflow.queue;
    },
    get fleet(): FleetLink | undefined {
      return gflow.fleet;
    },
    sessions: gflow.sessions,
    get limiter(): TokenBucket {
      return gflow.limiter;
    },
    jobs: gflow.jobs,
    background: gflow.background,
    // On a fleet nobody here answers for its rows by this machine's locks and pids.
    keeper: gflow.settings.fleetUrl === undefined ? gflow.keeper : undefined,
    claimantFor: (profile: string) => gflow.claimantFor(profile),
    flushUsage: () => gflow.flushUsage(),
    thumbnails: gflow.thumbnails,
  });
}
