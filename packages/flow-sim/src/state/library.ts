import { type ProjectBrief, emptyBrief } from './brief.js';
import type { SeededRandom } from './random.js';

export interface Character {
  entityId: string;
  projectId: string;
  displayName: string;
  personalityNotes: string;
  voice: string;
  thumbnailMediaId: string;
}

export interface Project {
  id: string;
  owner: string;
  title: string;
  createdAt: number;
  /** The Agent-mode brief: master switch and instruction cards (state/brief.ts). */
  brief: ProjectBrief;
  characters: Character[];
  /** The agent-only composer's saved settings (created on first read). */
  agent?: AgentSettings;
}

/** Agent settings of a project (flow-wire §4 "Agent-only composer"): labels as the settings view shows them. */
export interface AgentSettings {
  imageAspect: string;
  imageCount: number;
  videoAspect: string;
  videoCount: number;
  imageModel: string;
  videoModel: string;
  /** "Confirm before generating". */
  confirm: 'always' | 'never';
}

export type MediaKind = 'image' | 'video' | 'upload';

export interface Media {
  id: string;
  workflowId: string;
  projectId: string;
  owner: string;
  kind: MediaKind;
  /** Display name: the file name for uploads, an auto title for generations. */
  name: string;
  prompt: string;
  model: string;
  aspectIndex: number;
  width: number;
  height: number;
  seed: number;
  createdAt: number;
  /** Opaque /asb/<token> thumbnail token (grid tile and picker option share it). */
  token: string;
  /** Uploaded bytes (uploads only). */
  bytes?: Buffer;
  mimeType: string;
  /** Searches that must run before a fresh upload is listed (late indexing). */
  hiddenForSearches: number;
  /**
   * A generated image: when it exists in full (its `ogiZ0b` reply time). Before, a project load
   * shows it pending (variant `pendingImage`), its `/asb/` URL and the pickers do not list it.
   * Absent: ready (uploads, older snapshots).
   */
  readyAt?: number;
  video?: VideoJob;
}

export interface VideoJob {
  submittedAt: number;
  runningAt: number;
  doneAt: number;
  urlAt: number;
  seconds: number;
  resolution: string;
  /** The start frame's media id (i2v and interpolation): the clip's picture. */
  startFrameId?: string;
  /** Final status when terminal (3 done, anything else failed). */
  finalStatus: number;
  stuck: boolean;
  withoutUrl: boolean;
  swapped: boolean;
  sizeMismatch: boolean;
  charged: number;
  refunded: boolean;
  upsample?: { mediaId: string; submittedAt: number; doneAt: number };
  /**
   * An extension (`fZytfe`, flow-captures.md §10): the clip it continues and the source frame
   * (0-based) its first frame shows (media/extensionClip.ts).
   */
  extendsFrom?: { mediaId: string; fromFrame: number };
}

/** Projects and media of every account, in memory. */
export class Library {
  readonly projects = new Map<string, Project>();
  readonly media = new Map<string, Media>();
  readonly #byToken = new Map<string, string>();

  constructor(private readonly random: SeededRandom) {}

  createProject(owner: string, title: string, now: number): Project {
    const project: Project = {
      id: this.random.uuid(),
      owner,
      title,
      createdAt: now,
      brief: emptyBrief(),
      characters: [],
    };
    this.projects.set(project.id, project);
    return project;
  }

  projectsOf(owner: string): Project[] {
    return [...this.projects.values()].filter((p) => p.owner === owner).sort((a, b) => b.createdAt - a.createdAt);
  }

  addMedia(fields: Omit<Media, 'id' | 'workflowId' | 'token'> & { id?: string }): Media {
    const media: Media = {
      ...fields,
      id: fields.id ?? this.random.uuid(),
      workflowId: this.random.uuid(),
      token: `CAE${this.random.hex(18)}`,
    };
    this.media.set(media.id, media);
    this.#byToken.set(media.token, media.id);
    return media;
  }

  /** Re-inserts a saved media item (persistence). */
  restore(media: Media): void {
    this.media.set(media.id, media);
    this.#byToken.set(media.token, media.id);
  }

  byToken(token: string): Media | undefined {
    const id = this.#byToken.get(token);
    return id === undefined ? undefined : this.media.get(id);
  }

  /** The media a workflow id names (an extension's clip is served under it: flow-captures.md §10). */
  byWorkflow(workflowId: string): Media | undefined {
    for (const m of this.media.values()) if (m.workflowId === workflowId) return m;
    return undefined;
  }

  mediaOfProject(projectId: string): Media[] {
    return [...this.media.values()].filter((m) => m.projectId === projectId).sort((a, b) => b.createdAt - a.createdAt);
  }

  /** Library assets visible in the picker: an account's uploads and finished generations. */
  assetsOf(owner: string): Media[] {
    return [...this.media.values()].filter((m) => m.owner === owner).sort((a, b) => b.createdAt - a.createdAt);
  }

  findCharacter(entityId: string): Character | undefined {
    for (const p of this.projects.values()) {
      const hit = p.characters.find((c) => c.entityId === entityId);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }

  uuid(): string {
    return this.random.uuid();
  }
}
