import type { SeededRandom } from './random.js';

/**
 * A scene of a project (flow-captures.md §10): the clips on its timeline, in order. Where Flow
 * keeps scenes and how it names their rpcs was never captured [U]; the sim keeps them in memory
 * (not in `dataDir`) and edits them through its own `simScene` rpc (rpc/scene.ts).
 */
export interface Scene {
  readonly id: string;
  readonly projectId: string;
  readonly owner: string;
  /** Media ids of the timeline's clips, first to last. */
  readonly clipIds: string[];
  readonly createdAt: number;
}

/** Every account's scenes, by id. */
export class SceneStore {
  readonly #scenes = new Map<string, Scene>();

  constructor(private readonly random: SeededRandom) {}

  create(fields: { projectId: string; owner: string; clipIds: readonly string[]; now: number }): Scene {
    const scene: Scene = {
      id: this.random.uuid(),
      projectId: fields.projectId,
      owner: fields.owner,
      clipIds: [...fields.clipIds],
      createdAt: fields.now,
    };
    this.#scenes.set(scene.id, scene);
    return scene;
  }

  get(id: string): Scene | undefined {
    return this.#scenes.get(id);
  }

  /** The scene if it belongs to this project and owner, else undefined. */
  inProject(id: string, projectId: string, owner: string): Scene | undefined {
    const scene = this.#scenes.get(id);
    return scene !== undefined && scene.projectId === projectId && scene.owner === owner ? scene : undefined;
  }

  /** Puts clips at the end of the timeline (one already there stays where it is). */
  append(id: string, mediaIds: readonly string[]): void {
    const scene = this.#scenes.get(id);
    if (scene === undefined) return;
    for (const mediaId of mediaIds) if (!scene.clipIds.includes(mediaId)) scene.clipIds.push(mediaId);
  }
}
