/** Parameter schemas every operation family shares: Flow ids, the profile, local paths, prompt tools. */
import { FLOW_UUID } from '@gflow/flow-facts';
import { z } from 'zod';
import { FLOW_ID, RUN_ID } from './flowIdPattern.js';

export { FLOW_ID, RUN_ID };
/** A saved character's entity id (its form was never captured): FLOW_ID's shape. */
export const flowId = (what: string) =>
  z.string().trim().regex(FLOW_ID, `${what} must be 1–128 letters, digits, "_" or "-"`);

/**
 * A Flow project or media id: a UUID (@gflow/flow-facts' FLOW_UUID). Anything else can name
 * nothing in Flow, so it is refused (exit 2) before a browser opens or the catalog is asked.
 */
export const flowUuid = (what: string) =>
  z.string().trim().regex(FLOW_UUID, `${what} must be a Flow id (a UUID such as 3f0c2a1e-9b7d-4c21-8e5f-0a1b2c3d4e5f)`);

/** One of `values`, in any case; advertised as the enum it is (a transform alone says only "string"). */
export const caseInsensitive = <const T extends readonly [string, ...string[]]>(values: T) =>
  z
    .string()
    .trim()
    .transform((v) => v.toLowerCase())
    .pipe(z.enum(values))
    .meta({ enum: [...values] });

export const profileParam = z
  .string()
  .trim()
  .min(1)
  .default('default')
  .describe(
    'Profile name (a plain name, never a path). "default" resolves as the CLI does: GFLOW_CLI_PROFILE, then config.toml, then the only profile.',
  );

/** A pool of a fleet's profiles a run may name instead of one profile (GFLOW_FLEET_POOLS on the workers). */
export const profilePoolParam = z
  .string()
  .trim()
  .regex(/^[\w.-]{1,64}$/, 'profile_pool must be a plain pool name')
  .optional()
  .describe(
    "On a fleet (GFLOW_FLEET_URL): a pool of profiles instead of one profile. The run goes to the pool's profile with the capacity and quota for its kind of work, and moves to the next one when Flow refuses it for quota or unusual activity before anything was made; a run's project never spans two accounts. Not together with a profile.",
  );

export const toolSpec = z.object({
  name: z.string().trim().min(1).describe('A prompt tool slug from gflow_list_tools.'),
  options: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
});

/** A local path argument (a file or a directory): what every output parameter accepts. */
export const localPath = z.string().trim().min(1).max(1024);

/** A caller's key for a paid call: a repeated call with the same key returns the earlier task instead of paying again. */
export const idempotencyKeyParam = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[\x20-\x7e]+$/, 'idempotency_key must be printable ASCII')
  .optional()
  .describe(
    'A key of your own for this call (e.g. a UUID): repeating the call with the same key (an agent retrying after a timeout) returns the earlier task or run — followed to its end when wait=true — instead of submitting and paying again. Per profile.',
  );

/** `wait` of a run: the whole run in the call, or its task id at once. */
export const runWaitParam = (what: string) =>
  z
    .boolean()
    .default(true)
    .describe(
      `true (default): run the whole ${what} in this call. false: return {status:"pending", task_id} at once; the ${what} runs in the background; follow it with tasks/get (or gflow task wait), stop it with tasks/cancel (no step is submitted after a cancel).`,
    );
