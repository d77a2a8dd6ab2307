import { VIDEO_MODELS, type VideoModel } from './models.js';

/**
 * The extend entries of the scene editor's timeline `+` menu (flow-captures.md §10). Measured: one
 * entry "Extend (Veo 3.1 - Lite)". [U]: the model key the page sends (never recorded: the sim's
 * `veo_3_1_extend_…` keys), which other models the menu offers (variant `extendModels`), and what
 * an extension costs (the sim charges what a clip of the extension's length costs: models.ts).
 */
export interface ExtendModel {
  /** The video model it is (its menu label and cost). */
  readonly model: VideoModel;
  /** The model key the page puts in the `fZytfe` body [U]. */
  readonly key: string;
}

function modelById(id: string): VideoModel {
  const model = VIDEO_MODELS.find((m) => m.id === id);
  if (model === undefined) throw new Error(`no video model ${id}`);
  return model;
}

const ALL: readonly ExtendModel[] = [
  { model: modelById('veo_lite'), key: 'veo_3_1_extend_lite' },
  { model: modelById('veo_fast'), key: 'veo_3_1_extend_fast' },
  { model: modelById('veo_quality'), key: 'veo_3_1_extend' },
];

/** The entries the menu offers under the `extendModels` variant: Lite alone (measured), or every Veo model. */
export function extendModelsOffered(variant: 'lite' | 'veo-all'): readonly ExtendModel[] {
  return variant === 'lite' ? ALL.slice(0, 1) : ALL;
}

export function extendModelOfKey(key: string): ExtendModel | undefined {
  return ALL.find((m) => m.key === key);
}

/** Frames per second of a clip on the timeline (§10: the frame window counts at 24 fps). */
export const FPS = 24;

/** The frame window of a clip's last second, 1-based and inclusive (§10: `[d·24 − 23, d·24]`). */
export function lastSecondWindow(seconds: number): [number, number] {
  return [seconds * FPS - (FPS - 1), seconds * FPS];
}

/** The tool enum of every submit's client context, `fZytfe` included (§10: 22). */
export const TOOL_ENUM = 22;
