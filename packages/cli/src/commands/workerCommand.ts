import { UsageError } from '@gflow/errors';
import { PROFILE_FLAG, flag } from '../args/flagSpec.js';
import { type LeafSpec, defineGroup, defineLeaf } from '../framework/commandSpec.js';

/**
 * `gflow worker run --profile P`: the background worker `--no-wait` starts (detached, its stdio in
 * `<home>/logs/worker-P.log`; --json prints its report at the end). It drains the profile's task queue through core (Gflow.drainQueue:
 * one worker per profile, the profile's lease before each claim, the same jobs as wait=true) and
 * exits 0 once the queue has stayed empty for --idle-seconds. SIGTERM / Ctrl-C cancel the running
 * job (settled by its checkpoint: cancelled, or indeterminate after the submit) and stop it.
 */
const run = defineLeaf({
  name: 'run',
  description:
    "Internal, started by --no-wait: run a profile's queued generation tasks one by one, then exit when the queue stays empty.",
  hidden: true,
  worker: true,
  recordUsage: false,
  handlesInterrupt: true,
  flags: () => [
    { ...PROFILE_FLAG, required: true, description: 'The profile whose queue to drain (a plain name).' },
    flag({
      key: 'idle_seconds',
      name: 'idle-seconds',
      kind: 'number',
      valueHint: 'SECONDS',
      shownDefault: 5,
      description: 'Leave once the queue has stayed empty this long (0–3600).',
    }),
  ],
  examples: ['gflow worker run --profile work', 'gflow worker run --profile sandbox --sandbox'],
  async run(ctx, values) {
    const profile = values['profile'];
    if (typeof profile !== 'string')
      throw new UsageError('--profile is required.', { extensions: { parameter: 'profile' } });
    const idle = values['idle_seconds'];
    if (idle !== undefined && (typeof idle !== 'number' || !Number.isFinite(idle) || idle < 0 || idle > 3600))
      throw new UsageError('--idle-seconds takes 0–3600.', { extensions: { parameter: 'idle_seconds' } });
    const gflow = await ctx.gflow();
    const note = (event: string, fields: Readonly<Record<string, unknown>> = {}): void =>
      void ctx.io.stderr.write(
        `${JSON.stringify({ time: new Date().toISOString(), event: `worker: ${event}`, pid: process.pid, profile, ...fields })}\n`,
      );
    note('started');
    const report = await gflow.drainQueue(profile, {
      signal: ctx.signal,
      ...(typeof idle === 'number' ? { idleSeconds: idle } : {}),
      onEvent: note,
    });
    note('exiting', { reason: report.reason, ran: report.ran.length });
    // Its log is stderr; --json adds the report on stdout (a terminal gets nothing more).
    return { data: { status: 'ok', profile, reason: report.reason, ran: [...report.ran] }, text: '' };
  },
});

/**
 * `gflow worker --fleet URL`: this machine's worker on a fleet (docs/FLEET.md). It serves the
 * profiles signed in here (or those given with --profile) from the fleet's PostgreSQL queue
 * until Ctrl-C / SIGTERM, which stop it: nothing more is taken, the running task is cancelled
 * (settled by its checkpoint), and the fleet hears it left. Its log is stderr (JSON lines).
 */
const fleetWorker: LeafSpec = {
  name: 'worker',
  description:
    "Serve this machine's profiles on a fleet (--fleet URL or GFLOW_FLEET_URL) until stopped: runs any worker of the fleet may take.",
  worker: true,
  recordUsage: false,
  handlesInterrupt: true,
  flags: () => [
    {
      ...PROFILE_FLAG,
      repeatable: true,
      description: 'A profile to serve (repeatable; default: every profile signed in on this machine).',
    },
    flag({
      key: 'pools',
      kind: 'string',
      valueHint: 'POOL=PROFILE[,PROFILE…] …',
      description: 'The pools its profiles serve (GFLOW_FLEET_POOLS), as "studio=ana,ben night=cy".',
    }),
  ],
  examples: [
    'gflow worker --fleet postgres://gflow:secret@db.lan:5432/gflow',
    'GFLOW_FLEET_POOLS="studio=ana,ben" gflow worker --fleet postgres://… --profile ana --profile ben',
  ],
  async run(ctx, values) {
    if (typeof values['pools'] === 'string') ctx.setSettingFlag('fleetPools', values['pools']);
    const gflow = await ctx.gflow();
    if (gflow.settings.fleetUrl === undefined)
      throw new UsageError('gflow worker serves a fleet: give --fleet URL (or set GFLOW_FLEET_URL).', {
        extensions: { parameter: 'fleet' },
      });
    const asked = values['profile'];
    const profiles = Array.isArray(asked) ? asked.map(String) : typeof asked === 'string' ? [asked] : undefined;
    const note = (event: string, fields: Readonly<Record<string, unknown>> = {}): void =>
      void ctx.io.stderr.write(
        `${JSON.stringify({ time: new Date().toISOString(), event: `fleet worker: ${event}`, pid: process.pid, ...fields })}\n`,
      );
    const report = await gflow.serveFleet({ ...(profiles ? { profiles } : {}), signal: ctx.signal, onEvent: note });
    note('stopped', { ran: report.ran.length });
    return {
      data: { status: 'ok', worker_id: report.workerId, profiles: [...report.profiles], ran: [...report.ran] },
      text: '',
    };
  },
};

export const workerCommand = defineGroup({
  name: 'worker',
  description:
    "A fleet's worker (`gflow worker --fleet URL`); the hidden `worker run` is the background worker --no-wait starts.",
  children: { run },
  bare: fleetWorker,
});
