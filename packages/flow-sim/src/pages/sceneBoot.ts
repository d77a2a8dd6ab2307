import { type SceneClip, sceneClipsOf } from '../rpc/scene.js';
import type { Scene } from '../state/scenes.js';
import type { SimState } from '../state/simState.js';
import { extendModelsOffered } from '../wire/extendModels.js';
import { videoCost } from '../wire/models.js';

/** What the scene editor's page boots with (assets/flow/scene.js). */
export interface SceneBoot {
  readonly id: string;
  readonly clips: readonly SceneClip[];
  /** The timeline `+` menu's extend entries: the model's label, the key the page sends [U], the credits it costs. */
  readonly extend: ReadonlyArray<{ readonly label: string; readonly key: string; readonly cost: number }>;
}

export function sceneBoot(state: SimState, scene: Scene, now: number): SceneBoot {
  const seconds = Number(state.variants.extendLength);
  return {
    id: scene.id,
    clips: sceneClipsOf(state, scene, now),
    extend: extendModelsOffered(state.variants.extendModels).map((m) => ({
      label: m.model.label,
      key: m.key,
      cost: videoCost(m.model, seconds, 1, '720p'),
    })),
  };
}
