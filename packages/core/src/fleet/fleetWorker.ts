import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ACCOUNT_MARKER } from '@gflow/flow-facts';
import type { HomeLayout } from '../home/homeLayout.js';
import { listProfileNames } from '../home/profiles.js';
import type { TaskRecord } from '@gflow/catalog';
import { ConfigurationError, toGflowError } from '@gflow/errors';
import type { ProfileFacts } from '@gflow/fleet';
import { localDay } from '../generation/index.js';
import type { RuntimeServices } from '../runtime/runtimeServices.js';
import { isRunPayload } from '../runs/runPayload.js';
import type { FleetLink } from './fleetLink.js';
import { publishSettled } from './fleetPublish.js';

type Log = (event: string, fields?: Readonly<Record<string, unknown>>) => void;

export interface ServeFleetOptions {
  /** The profiles this machine holds (signed in here) that it serves. */
  readonly profiles: readonly string[];
  /** Which pools each profile serves (GFLOW_FLEET_POOLS). */
  readonly poolsOf: (profile: string) => readonly string[];
  /** Aborting stops the worker: nothing more is taken, the running task is cancelled (settled by its checkpoint). */
  readonly signal: AbortSignal;
  /** Runs one claimed task to its end in its operation's context (Gflow's, as the drain worker does). */
  readonly runTask: (record: TaskRecord, signal: AbortSignal) => Promise<unknown>;
  readonly onEvent?: Log;
}

export interface FleetServeReport {
  readonly workerId: string;
  readonly profiles: readonly string[];
  /** The task ids this worker ran, in order. */
  readonly ran: readonly string[];
}

/** The profiles of this home that are signed in (their account marker written by `auth login`). */
export function signedInProfiles(layout: HomeLayout): string[] {
  return listProfileNames(layout).filter((name) => fs.existsSync(path.join(layout.profileDir(name), ACCOUNT_MARKER)));
}

/** GFLOW_FLEET_POOLS (`studio=ana,ben night=cy`) as the pools of each profile. */
export function poolsOfSetting(entries: readonly string[]): (profile: string) => readonly string[] {
  const pools = new Map<string, string[]>();
  for (const entry of entries) {
    const [pool, members = ''] = entry.split('=');
    for (const profile of members.split(',').filter(Boolean))
      pools.set(profile, [...(pools.get(profile) ?? []), pool as string]);
  }
  return (profile) => pools.get(profile) ?? [];
}

const RESUMABLE_ERRORS: ReadonlySet<string> = new Set(['daemon-recovery']);

/** A row whose runner died (settled as such) that this worker picks up again: a run (its steps decide), or a generation that never reached its submit. */
function resumable(row: TaskRecord): boolean {
  const type = String(row.error?.['type'] ?? '');
  if (![...RESUMABLE_ERRORS].some((code) => type.endsWith(code))) return false;
  if (isRunPayload(row.payload)) return row.status === 'failed' || row.status === 'indeterminate';
  return row.status === 'failed' && row.checkpoint?.may_have_spent !== true;
}

/**
 * One job of the fleet (a task of a profile this worker holds). pg-boss hands a job back to a live
 * worker when the one that held it stopped its heartbeat; the row may then still be `working` under
 * the dead claimant: it is settled as a dead runner's (its steps too), and a run is requeued and run
 * again — done steps kept, a step that may have been submitted recovered by its recorded ids, only
 * steps that never reached their submit sent. A single generation that may have spent stays
 * `indeterminate` (never sent twice).
 */
export async function takeFleetTask(
  runtime: RuntimeServices,
  link: FleetLink,
  job: { readonly taskId: string; readonly signal: AbortSignal },
  options: Pick<ServeFleetOptions, 'runTask'> & { readonly log: Log },
): Promise<void> {
  const { queue } = runtime;
  let row = await queue.get(job.taskId);
  if (row === undefined) return;
  const me = runtime.claimantFor(row.profile);
  if (row.status === 'working') {
    const dead = row.claimant;
    options.log('a dead worker’s task came back', { task_id: row.taskId, claimant: dead });
    // Its steps are settled and the row itself goes back to pending in one transaction: a caller
    // following it never reads an end (`indeterminate`) the run it resumes does not have.
    await queue.settleAbandoned({ isAlive: (claimant) => claimant !== dead }, { resume: row.taskId });
    row = (await queue.get(job.taskId)) as TaskRecord;
  }
  if (resumable(row)) row = await queue.requeue(row.taskId);
  if (row.status !== 'pending') return;
  const claimed = await queue.claim(row.taskId, me);
  if (claimed === null) return;
  options.log('task claimed', { task_id: claimed.taskId, task_type: claimed.taskType, profile: claimed.profile });
  try {
    await options.runTask(claimed, job.signal);
  } catch (error) {
    const held = await queue.get(claimed.taskId);
    if (held?.status === 'working' && held.claimant === me) await queue.fail(claimed.taskId, me, error);
    options.log('task crashed', { task_id: claimed.taskId, error: toGflowError(error).message });
  }
  const settled = (await queue.get(claimed.taskId)) as TaskRecord;
  const published = await publishSettled(runtime, link, settled);
  // A pool's task Flow refused here moved (in the failing transaction) to another profile.
  const moved = settled.status === 'pending' && settled.profile !== claimed.profile;
  options.log(moved ? 'task moved to another profile of its pool' : 'task settled', {
    task_id: settled.taskId,
    status: settled.status,
    published,
    ...(moved ? { from: claimed.profile, to: settled.profile } : {}),
  });
}

/** A profile's credit facts from this worker's ledger (its catalog), for routing. */
function factsOf(runtime: RuntimeServices, profiles: readonly string[]): Map<string, ProfileFacts> {
  const day = localDay();
  return new Map(
    profiles.map((p) => [
      p,
      {
        creditsToday: runtime.catalog.credits.dayTotal(p, day),
        dailyBudget: runtime.settings.dailyCreditBudget ?? null,
      },
    ]),
  );
}

/**
 * Settles rows whose worker is gone (its heartbeat too old) and whose profile no live worker holds,
 * so no task stays `working` for a dead machine. A row whose profile a live worker holds is left to
 * it: pg-boss gives the dead worker's job back there, and that worker settles and resumes the run
 * (takeFleetTask); settling it here first would show a caller following the row an end
 * (`indeterminate`) the run does not have.
 */
export async function settleDeadWorkers(runtime: RuntimeServices, link: FleetLink): Promise<void> {
  const working = (await runtime.queue.list({ status: 'working', limit: 1000 })).items;
  const alive = new Map<string, boolean>();
  for (const row of working)
    if (row.claimant !== null && !alive.has(row.claimant))
      alive.set(row.claimant, await runtime.queue.claimantAlive(row.claimant));
  if (![...alive.values()].some((a) => !a)) return;
  const served = new Set((await link.fleet.registry.profiles()).filter((p) => p.live).map((p) => p.profile));
  const resumedElsewhere = new Set(working.filter((row) => served.has(row.profile)).map((row) => row.claimant));
  await runtime.queue.settleAbandoned({
    isAlive: (claimant) => (alive.get(claimant) ?? true) || resumedElsewhere.has(claimant),
  });
}

/** The worker's beat: it is alive, its profiles' facts, and the rows of workers that are not. */
function startHeartbeat(runtime: RuntimeServices, link: FleetLink, profiles: readonly string[], log: Log): () => void {
  const beat = async (): Promise<void> => {
    await link.fleet.registry.heartbeat(link.workerId, factsOf(runtime, profiles));
    await settleDeadWorkers(runtime, link);
  };
  const timer = setInterval(() => {
    beat().catch((error: unknown) => log('heartbeat failed', { error: toGflowError(error).message }));
  }, link.fleet.heartbeatMs);
  return () => clearInterval(timer);
}

/**
 * `gflow worker --fleet`: this machine's worker on the fleet. It registers the profiles it holds
 * (and their pools), serves each profile's queue through pg-boss (one task at a time per profile
 * fleet-wide; tasks of different profiles side by side), beats its heartbeat (its profiles' credit
 * facts for routing; settling the rows of workers that died), publishes what each task made to the
 * shared catalog, and moves a pool's run Flow refused to the next profile. Returns once `signal`
 * aborts: it stops taking work, cancels what runs, and says it left.
 */
export async function serveFleet(runtime: RuntimeServices, options: ServeFleetOptions): Promise<FleetServeReport> {
  const link = runtime.fleet;
  if (link === undefined) throw new ConfigurationError('A fleet worker needs GFLOW_FLEET_URL (--fleet URL).');
  if (options.profiles.length === 0)
    throw new ConfigurationError('This machine holds no signed-in profile to serve on the fleet.', {
      remediationHint: "Sign a profile in here first ('gflow auth login --profile NAME'), then start the worker.",
    });
  const log: Log = options.onEvent ?? (() => undefined);
  const ran: string[] = [];
  const profiles = [...options.profiles];
  await link.fleet.registry.register({
    id: link.workerId,
    host: os.hostname(),
    pid: process.pid,
    profiles: profiles.map((name) => ({ name, pools: [...options.poolsOf(name)] })),
  });
  const stopBeat = startHeartbeat(runtime, link, profiles, log);
  try {
    for (const profile of profiles)
      await link.fleet.dispatch.serve(profile, async (taskId, jobSignal) => {
        ran.push(taskId);
        const signal = AbortSignal.any([options.signal, jobSignal]);
        await takeFleetTask(runtime, link, { taskId, signal }, { runTask: options.runTask, log });
      });
    log('serving', { worker_id: link.workerId, profiles });
    await new Promise<void>((resolve) => {
      if (options.signal.aborted) resolve();
      else options.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    stopBeat();
    for (const profile of profiles) await link.fleet.dispatch.stopServing(profile, true).catch(() => undefined);
    await link.fleet.registry.stopped(link.workerId).catch(() => undefined);
  }
  return { workerId: link.workerId, profiles, ran };
}
