/** Parameter schemas every operation family shares: Flow ids, the profile, local paths, prompt tools. */
import { z } from 'zod';

/** Flow ids (projects, media, entities): letters, digits, `_` and `-`, ≤ 128, so they cannot traverse paths. */
export const FLOW_ID = /^[\w-]{1,128}$/;
export const flowId = (what: string) =>
  z.string().trim().regex(FLOW_ID, `${what} must be 1–128 letters, digits, "_" or "-"`);

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

export const toolSpec = z.object({
  name: z.string().trim().min(1).describe('A prompt tool slug from gflow_list_tools.'),
  options: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
});

/** A local path argument (a file or a directory): what every output parameter accepts. */
export const localPath = z.string().trim().min(1).max(1024);
