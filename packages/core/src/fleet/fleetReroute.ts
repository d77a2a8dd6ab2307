import { codeOfProblemType } from '@gflow/errors';
import type { RefusalPolicy } from '@gflow/fleet';

/** How long a profile Flow refused for quota or unusual activity sits out its kind of work. */
export const REFUSAL_HOLD_MS = 15 * 60 * 1000;

/** Flow's refusals that are about the account, not the request: another profile of the pool may take the run. */
const ACCOUNT_REFUSALS: ReadonlySet<string> = new Set(['insufficient-credits', 'waf-rejection']);

/** The kind of work a row is, for routing: images draw on a free quota, videos spend credits. */
export function kindOfTask(taskType: string): 'image' | 'video' {
  return ['batch', 't2i', 'i2i'].includes(taskType) ? 'image' : 'video';
}

type Payload = Record<string, unknown>;
const record = (v: unknown): Payload => (typeof v === 'object' && v !== null ? (v as Payload) : {});

/**
 * A payload as the next profile of the pool runs it, or undefined when it is tied to the refused
 * account: a run or generation that names its Flow project, or starts from media of that account
 * (a catalogued media id, a default project of its worker), stays — its project never spans two
 * accounts. A run's steps carry their profile too.
 */
export function payloadFor(payload: Payload, profile: string): Payload | undefined {
  if (payload['kind'] === 'run') {
    if (payload['project'] !== null && payload['project'] !== undefined) return undefined;
    const moved: Payload = { ...payload, profile };
    for (const key of ['items', 'links'])
      if (Array.isArray(payload[key]))
        moved[key] = (payload[key] as unknown[]).map((step) => ({ ...record(step), profile }));
    return moved;
  }
  const input = record(payload['input']);
  const plan = record(payload['plan']);
  const media = [plan['startFrame'], plan['endFrame'], ...(Array.isArray(plan['references']) ? plan['references'] : [])]
    .map(record)
    .some((ref) => ref['kind'] === 'media');
  const pinned = input['project'] !== undefined || record(payload['job_settings'])['project'] !== undefined;
  if (media || pinned) return undefined;
  return { ...payload, input: { ...input, profile } };
}

/**
 * The fleet's policy for a pool's task that is about to fail (the fleet asks it inside the failing
 * transaction, so nobody sees the task fail and then come back): when Flow refused its account
 * (quota, unusual activity) and nothing ties it to that account, it moves to the next profile of
 * its pool, the refused one sitting out that kind of work for a while.
 */
export const refusalPolicy: RefusalPolicy = (row, problem) => {
  const type = problem['type'];
  const code = typeof type === 'string' ? codeOfProblemType(type) : undefined;
  if (code === undefined || !ACCOUNT_REFUSALS.has(code)) return undefined;
  if (payloadFor(record(row.payload), row.profile) === undefined) return undefined;
  return {
    reason: code,
    kind: kindOfTask(row.taskType),
    holdMs: REFUSAL_HOLD_MS,
    rewrite: (payload, profile) => payloadFor(payload, profile) ?? payload,
  };
};
