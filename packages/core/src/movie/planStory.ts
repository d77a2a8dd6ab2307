import type { Catalog } from '@gflow/catalog';
import {
  BadParameterError,
  type GflowError,
  ReferenceNotFoundError,
  ReferenceNotOnDiskError,
  isGflowError,
} from '@gflow/errors';
import { findVideoModel } from '@gflow/flow-facts';
import { planVideo, resolveInputs } from '../generation/index.js';
import { type GenerateVideoInput, generateVideoInput } from '../generation/schemas.js';
import type { StoryScene } from '../runs/index.js';
import { storySteps } from '../runs/index.js';
import { MAX_MOVIE_STEPS, type Storyboard, type StoryboardScene } from './storyboard.js';

/** A saved character as the project lists it. */
export interface NamedCharacter {
  readonly entityId: string;
  readonly name: string;
}

/** What planning needs besides the storyboard: the catalog, the profile, and how to list a project's characters. */
export interface StoryPlanning {
  readonly catalog: Catalog;
  readonly profile: string;
  /** Where relative `start` files are read from. */
  readonly cwd: string;
  /** A project's saved characters (a browser read; spends nothing). */
  readonly characters: (project: string) => Promise<readonly NamedCharacter[]>;
}

/** A storyboard checked whole and turned into the story run's scenes. */
export interface PlannedStory {
  readonly title: string;
  /** The project every new clip goes to: the storyboard's, else an existing first scene's, else null (a new one). */
  readonly project: string | null;
  readonly overlap: number;
  readonly scenes: StoryScene[];
}

const bad = (field: string, detail: string): never => {
  throw new BadParameterError(`${field}: ${detail}`, { extensions: { parameter: field } });
};

/** A refusal from below, restated with the storyboard field it came from (same class and exit code). */
function naming(error: unknown, field: string): unknown {
  if (!isGflowError(error)) return error;
  const Class = error.constructor as new (detail: string, options: object) => GflowError;
  const detail = error.detail.replace(/^[\w.[\]]+: /, '');
  return new Class(`${field}: ${detail}`, {
    cause: error,
    ...(error.remediationHint === undefined ? {} : { remediationHint: error.remediationHint }),
    extensions: { ...error.extensions, parameter: field },
  });
}

/** The rules of a scene's fields that need nothing but the storyboard. */
function checkShape(board: Storyboard): void {
  board.scenes.forEach((scene, i) => {
    const at = `scenes[${i}]`;
    if ((scene.prompt === undefined) === (scene.media_id === undefined))
      bad(at, 'give a prompt (a new clip) or a media_id (an existing video), exactly one.');
    if (scene.media_id !== undefined)
      for (const key of ['start', 'characters', 'model', 'duration', 'aspect'] as const)
        if (scene[key] !== undefined) bad(`${at}.${key}`, 'a scene over an existing video (media_id) makes no clip.');
    if (scene.start !== undefined && scene.characters !== undefined)
      bad(`${at}.characters`, 'a scene starts from a frame (start) or from characters, not both.');
    if (scene.start === 'previous' && i === 0) bad(`${at}.start`, 'the first scene has no scene before it.');
    for (const [e, ext] of (scene.extend ?? []).entries()) {
      const name = typeof ext === 'string' ? undefined : ext.model;
      const model = findVideoModel(name ?? scene.model ?? board.model ?? 'veo_lite');
      if (model?.family !== 'veo')
        bad(
          `${at}.extend[${e}].model`,
          'Flow extends clips with its Veo 3.1 models only (veo_lite, veo_fast, veo_quality).',
        );
    }
  });
  const steps = board.scenes.reduce((n, s) => n + (s.prompt === undefined ? 0 : 1) + (s.extend?.length ?? 0), 0);
  if (steps > MAX_MOVIE_STEPS)
    bad('scenes', `the story makes ${steps} clips; a movie makes at most ${MAX_MOVIE_STEPS}.`);
  if (steps === 0) bad('scenes', 'the story makes no clip (every scene is an existing video without extensions).');
}

/** A scene over an existing video: a finished video of this profile with a verified local copy. */
async function existingClip(
  plan: StoryPlanning,
  scene: StoryboardScene & { media_id: string },
  at: string,
): Promise<StoryScene['clip'] & { from: 'media' }> {
  const asset = plan.catalog.assets.getByMediaId(plan.profile, scene.media_id);
  if (asset === undefined)
    throw new ReferenceNotFoundError(
      `${at}.media_id: no media ${scene.media_id} in the catalog of profile "${plan.profile}".`,
      {
        extensions: { parameter: `${at}.media_id`, media_id: scene.media_id },
      },
    );
  if (asset.kind !== 'video' || asset.status !== 'ready')
    bad(`${at}.media_id`, `${scene.media_id} is not a finished video (${asset.kind}, ${asset.status}).`);
  if ((scene.extend?.length ?? 0) > 0 && (!asset.flowWorkflowId || asset.durationSeconds === null))
    bad(
      `${at}.media_id`,
      `the catalog does not know the workflow id and length of ${scene.media_id}, which an extension needs.`,
    );
  const file = await plan.catalog.localFiles.firstVerified(asset.id);
  if (file === null)
    throw new ReferenceNotOnDiskError(`${at}.media_id: ${scene.media_id} has no local copy to put in the movie.`, {
      remediationHint: `Download it first (gflow data download ${scene.media_id}; spends nothing).`,
      extensions: { parameter: `${at}.media_id` },
    });
  return { from: 'media', media_id: asset.flowMediaId, file: file.file.path, seconds: asset.durationSeconds };
}

/** Names → saved characters of the project, each name exactly one (case-insensitive). */
function charactersOf(names: readonly string[], listed: readonly NamedCharacter[], at: string, project: string) {
  return names.map((name) => {
    const found = listed.filter((c) => c.name.toLowerCase() === name.toLowerCase());
    if (found.length === 0)
      bad(
        `${at}.characters`,
        `no character "${name}" in project ${project} (it has ${listed.length === 0 ? 'none' : listed.map((c) => `"${c.name}"`).join(', ')}).`,
      );
    if (found.length > 1)
      bad(`${at}.characters`, `two characters are named "${name}" (${found.map((c) => c.entityId).join(', ')}).`);
    return found[0] as NamedCharacter;
  });
}

/** A new clip's generation input, checked by the generation path's own rules (a placeholder stands in for a frame to come). */
async function newClip(
  plan: StoryPlanning,
  board: Storyboard,
  scene: StoryboardScene,
  at: string,
  characters: readonly NamedCharacter[],
): Promise<StoryScene['clip'] & { from: 'generate' }> {
  const fromFile = scene.start !== undefined && scene.start !== 'previous';
  const model = scene.model ?? board.model;
  let input: GenerateVideoInput;
  try {
    input = generateVideoInput.parse({
      prompt: scene.prompt,
      mode: characters.length > 0 ? 'r2v' : scene.start === undefined ? 't2v' : 'i2v',
      aspect: scene.aspect ?? board.aspect,
      ...(model === undefined ? {} : { model }),
      ...(scene.duration === undefined ? {} : { duration: scene.duration }),
      ...(fromFile ? { initial_frame: scene.start } : {}),
      ...(characters.length > 0
        ? {
            reference_entities: characters.map((c) => c.entityId),
            reference_entity_names: characters.map((c) => c.name),
          }
        : {}),
      profile: plan.profile,
      wait: true,
    });
    const checked = planVideo(scene.start === 'previous' ? { ...input, initial_frame: 'previous-frame.png' } : input);
    if (fromFile) await resolveInputs(plan.catalog, checked, plan.profile, plan.cwd);
  } catch (error) {
    const field =
      fromFile && /initial_frame/.test(String((error as GflowError).extensions?.['parameter']))
        ? 'start'
        : fieldOfError(error);
    throw naming(error, `${at}${field === '' ? '' : `.${field}`}`);
  }
  return { from: 'generate', input, start: scene.start === 'previous' ? 'previous' : null };
}

function fieldOfError(error: unknown): string {
  const parameter = isGflowError(error) ? error.extensions['parameter'] : undefined;
  const map: Record<string, string> = {
    initial_frame: 'start',
    reference_entities: 'characters',
    reference_entity_names: 'characters',
  };
  return typeof parameter === 'string' ? (map[parameter] ?? parameter) : '';
}

/**
 * A storyboard checked whole before anything is sent — every scene's shape, every existing video,
 * start image and character, every clip by the generation path's rules — and turned into the
 * story run's scenes. The first problem names its scene and field (`scenes[2].characters`).
 */
export async function planStory(board: Storyboard, plan: StoryPlanning): Promise<PlannedStory> {
  checkShape(board);
  const needsCharacters = board.scenes.findIndex((s) => s.characters !== undefined);
  if (needsCharacters >= 0 && board.project === undefined)
    bad(
      `scenes[${needsCharacters}].characters`,
      "saved characters live in a Flow project: set the storyboard's project.",
    );
  const listed = needsCharacters >= 0 ? await plan.characters(board.project as string) : [];
  const scenes: StoryScene[] = [];
  for (const [i, scene] of board.scenes.entries()) {
    const at = `scenes[${i}]`;
    const chosen =
      scene.characters === undefined ? [] : charactersOf(scene.characters, listed, at, board.project as string);
    const clip =
      scene.media_id === undefined
        ? await newClip(plan, board, scene, at, chosen)
        : await existingClip(plan, { ...scene, media_id: scene.media_id }, at);
    const extensions = (scene.extend ?? []).map((e) => {
      const prompt = typeof e === 'string' ? e : e.prompt;
      const model = (typeof e === 'string' ? undefined : e.model) ?? scene.model ?? board.model;
      return model === undefined ? { prompt } : { prompt, model };
    });
    scenes.push({ clip, extends: extensions, title: scene.title ?? null });
  }
  return { title: board.title, project: board.project ?? firstProjectOf(plan, scenes), overlap: board.overlap, scenes };
}

/**
 * A movie that is stitched must be one frame size: clips of two aspects do not join (the stitch
 * copies packets, it does not re-encode). Refused before anything is sent, naming the first scene
 * that differs; an existing video whose aspect the catalog does not know is not held to it.
 */
export function checkOneAspect(story: PlannedStory, plan: Pick<StoryPlanning, 'catalog' | 'profile'>): void {
  const aspects = story.scenes.map((scene) =>
    scene.clip.from === 'generate'
      ? scene.clip.input.aspect
      : (plan.catalog.assets.getByMediaId(plan.profile, scene.clip.media_id)?.aspectRatio ?? null),
  );
  const first = aspects.find((a) => a !== null);
  const other = aspects.findIndex((a) => a !== null && a !== first);
  if (other >= 0)
    bad(
      `scenes[${other}].aspect`,
      `this scene is ${String(aspects[other])} and the movie ${String(first)}: clips of two sizes do not join into one file (stitch=false / --no-stitch keeps them apart).`,
    );
}

/** A story that starts over an existing video makes its clips in that video's project. */
function firstProjectOf(plan: StoryPlanning, scenes: readonly StoryScene[]): string | null {
  const first = scenes[0]?.clip;
  if (first?.from !== 'media') return null;
  return plan.catalog.assets.getByMediaId(plan.profile, first.media_id)?.flowProjectId ?? null;
}

/** How many paid steps a planned story makes. */
export function storyStepCount(scenes: readonly StoryScene[]): number {
  return storySteps(scenes).length;
}
