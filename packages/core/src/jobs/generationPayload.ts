import type { GenerateImageInput, GenerateVideoInput } from '../operations/generationSchemas.js';
import { type ImagePlan, type VideoPlan, planImage, planVideo } from '../operations/validateGeneration.js';

/** What a generation task row carries (`payload_json`, schema_version added by the catalog). */
export type GenerationTaskPayload =
  | {
      readonly kind: 'image';
      readonly task_id: string;
      readonly command: string;
      readonly input: GenerateImageInput;
      readonly expanded_prompt: string;
      readonly output_file?: string;
      readonly params: Record<string, unknown>;
    }
  | {
      readonly kind: 'video';
      readonly task_id: string;
      readonly command: string;
      readonly input: GenerateVideoInput;
      readonly expanded_prompt: string;
      readonly output_file?: string;
      readonly params: Record<string, unknown>;
    };

/** Re-derives the plan from the stored input (the same checks ran before the row was written). */
export function planOf(payload: GenerationTaskPayload): ImagePlan | VideoPlan {
  return payload.kind === 'image' ? planImage(payload.input) : planVideo(payload.input);
}
