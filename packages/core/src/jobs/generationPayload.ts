import type { GenerateImageInput, GenerateVideoInput } from '../operations/generationSchemas.js';
import { type ImagePlan, type VideoPlan, planImage, planVideo } from '../operations/validateGeneration.js';
import type { ResolvedSettings } from '../settings/loadSettings.js';

/**
 * The settings a job reads, as the process that queued it resolved them. A wait=false task is
 * run by whichever process claims it (a CLI's background worker, started with other settings
 * perhaps): these travel in the row so the job writes where, and waits as long as, its caller said.
 */
export interface JobSettings {
  readonly output_dir: string;
  readonly timeout_seconds: number;
  readonly agent_confirm: ResolvedSettings['agentConfirm'];
  readonly project: string | null;
}

export function jobSettingsOf(settings: ResolvedSettings): JobSettings {
  return {
    output_dir: settings.outputDir,
    timeout_seconds: settings.timeoutSeconds,
    agent_confirm: settings.agentConfirm,
    project: settings.project ?? null,
  };
}

/** The settings a job runs with: the row's (when the queuing process wrote them), else the runtime's. */
export function effectiveSettings(
  settings: ResolvedSettings,
  payload: { readonly job_settings?: JobSettings | undefined },
): ResolvedSettings {
  const own = payload.job_settings;
  if (!own) return settings;
  const { project: _project, ...rest } = settings;
  return {
    ...rest,
    outputDir: own.output_dir,
    timeoutSeconds: own.timeout_seconds,
    agentConfirm: own.agent_confirm,
    ...(own.project === null ? {} : { project: own.project }),
  };
}

/** What a generation task row carries (`payload_json`, schema_version added by the catalog). */
export type GenerationTaskPayload =
  | {
      readonly kind: 'image';
      readonly task_id: string;
      readonly command: string;
      readonly input: GenerateImageInput;
      readonly expanded_prompt: string;
      readonly output_file?: string;
      /** Flat in this directory, each file named by its media id (the CLI's --out DIR). */
      readonly output_dir?: string;
      readonly params: Record<string, unknown>;
      readonly job_settings?: JobSettings;
    }
  | {
      readonly kind: 'video';
      readonly task_id: string;
      readonly command: string;
      readonly input: GenerateVideoInput;
      readonly expanded_prompt: string;
      readonly output_file?: string;
      /** Flat in this directory, each file named by its media id (the CLI's --out DIR). */
      readonly output_dir?: string;
      readonly params: Record<string, unknown>;
      readonly job_settings?: JobSettings;
    };

/** Re-derives the plan from the stored input (the same checks ran before the row was written). */
export function planOf(payload: GenerationTaskPayload): ImagePlan | VideoPlan {
  return payload.kind === 'image' ? planImage(payload.input) : planVideo(payload.input);
}
