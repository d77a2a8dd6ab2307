/**
 * The rules of a generation request that hold before anything is sent (seed 000,
 * gflow_generate_image / gflow_generate_video), as one engine with two callers: core plans a
 * request with it (a violation becomes a 400 / exit 2, or the migrated-host code), and the driver
 * checks the request it was handed with it as its last line before the browser (the same
 * violation, the same words, the same code). A rule change is one edit here.
 *
 * The facts are stated in a vocabulary both callers have: counts and kinds, not paths or pages.
 */
import {
  BadParameterError,
  FlowHostMigratedError,
  type GflowError,
  ModelModeIncompatibilityError,
} from '@gflow/errors';
import { IMAGE_ASPECTS, VIDEO_ASPECTS } from './aspects.js';
import {
  type ImageModel,
  type VideoModel,
  findImageModel,
  findVideoModel,
  imageModelSpellings,
  videoModelSpellings,
} from './models.js';
import {
  DEFAULT_I2V_VIDEO_MODEL,
  R2V_VEO_SECONDS,
  maxDurationWithEndFrame,
  r2vPinsDuration,
  videoDurationsOf,
  videoRefCap,
} from './rules.js';

/** One broken rule: the parameter that carries it, the error code it becomes, and the words. */
export interface RuleViolation {
  readonly parameter: string;
  readonly code: 'bad-parameter' | 'flow-host-migrated' | 'model-mode-incompatibility';
  readonly detail: string;
}

/** A saved character as a request names it: both halves are needed (the picker finds it by name, the chip is checked by id). */
export interface CharacterFact {
  readonly entityId: string;
  readonly name: string;
}

/** What both callers can say about an image request. */
export interface ImageRequestFacts {
  readonly prompt: string;
  /** The model as spelled (a name or an alias). */
  readonly model: string;
  readonly aspect: string;
  readonly count: number;
  readonly references: number;
  readonly characters: readonly CharacterFact[];
  /** Core only (the driver is never handed them): the UI arm asked for and the ephemeral instructions. */
  readonly uiMode?: string | undefined;
  readonly instructions?: number | undefined;
}

/** What both callers can say about a video request. */
export interface VideoRequestFacts {
  readonly prompt: string;
  readonly mode: 't2v' | 'i2v' | 'r2v';
  /** The model as spelled; undefined: Flow's default. */
  readonly model: string | undefined;
  readonly aspect: string;
  readonly count: number;
  readonly duration: number | undefined;
  readonly resolution: string | undefined;
  /** How each frame was given: a local file or a catalogued media id. */
  readonly startFrame: 'path' | 'media' | undefined;
  readonly endFrame: 'path' | 'media' | undefined;
  readonly references: number;
  readonly characters: readonly CharacterFact[];
  readonly uiMode?: string | undefined;
}

/** An image request judged: its violations (first is the one to report) and its model when known. */
export interface ImageVerdict {
  readonly violations: readonly RuleViolation[];
  readonly model: ImageModel | undefined;
}

/** A video request judged: its violations, the model it runs on and the duration it gets (undefined: Flow's setting). */
export interface VideoVerdict {
  readonly violations: readonly RuleViolation[];
  readonly model: VideoModel | undefined;
  readonly duration: number | undefined;
}

const bad = (parameter: string, detail: string): RuleViolation => ({ parameter, code: 'bad-parameter', detail });
const migrated = (parameter: string, detail: string): RuleViolation => ({
  parameter,
  code: 'flow-host-migrated',
  detail,
});

function basicRules(facts: { prompt: string; aspect: string; count: number }, aspects: readonly string[]) {
  const out: RuleViolation[] = [];
  if (facts.prompt.trim() === '') out.push(bad('prompt', 'prompt must not be empty.'));
  if (!aspects.includes(facts.aspect))
    out.push(bad('aspect', `aspect ${facts.aspect} is not offered; accepted: ${aspects.join(', ')}.`));
  if (!Number.isInteger(facts.count) || facts.count < 1 || facts.count > 4)
    out.push(bad('count', 'count must be 1–4.'));
  return out;
}

function characterRules(characters: readonly CharacterFact[]): RuleViolation[] {
  return characters.some((c) => c.entityId.trim() === '' || c.name.trim() === '')
    ? [
        bad(
          'reference_entities',
          'A saved character needs its entity id and its display name: the @ picker finds it by name and gflow verifies the chip by id.',
        ),
      ]
    : [];
}

/** The UI arm: gflow drives the classic arm only (auto = classic); the agentic arm is labs-only. */
function uiModeRules(uiMode: string | undefined, instructions: number): RuleViolation[] {
  const forcedAgentic = instructions > 0;
  if (forcedAgentic && uiMode === 'classic')
    return [
      bad(
        'ui_mode',
        'instructions force the agentic arm, so ui_mode="classic" with instructions is a conflict; drop one of them.',
      ),
    ];
  if (forcedAgentic || uiMode === 'agentic')
    return [
      migrated(
        forcedAgentic ? 'instructions' : 'ui_mode',
        'The agentic arm (ui_mode="agentic" or instructions) is not available on flow.google.com; nothing was sent.',
      ),
    ];
  return [];
}

/** Every rule of an image request that needs no browser. */
export function judgeImageRequest(facts: ImageRequestFacts): ImageVerdict {
  const model = findImageModel(facts.model);
  const out = basicRules(facts, IMAGE_ASPECTS);
  if (model === undefined)
    out.push(bad('model', `Unknown image model "${facts.model}". Accepted: ${imageModelSpellings().join(', ')}.`));
  out.push(...uiModeRules(facts.uiMode, facts.instructions ?? 0), ...characterRules(facts.characters));
  if (model === undefined) return { violations: out, model };
  if (!model.onFlowHost)
    out.push(migrated('model', `${model.label} is not offered on flow.google.com; use nano2, nano2-lite or nano-pro.`));
  if (facts.references > model.refCap)
    out.push(
      bad(
        'reference_images',
        `${model.label} takes at most ${model.refCap} reference images; got ${facts.references}.`,
      ),
    );
  // A saved character is one more @ mention in the same reference list, so it counts toward the cap.
  else if (facts.references + facts.characters.length > model.refCap)
    out.push(
      bad(
        'reference_entities',
        `${model.label} takes at most ${model.refCap} references, saved characters included; got ${facts.references} + ${facts.characters.length}.`,
      ),
    );
  return { violations: out, model };
}

/** Which inputs go with which mode: frames with i2v, references with r2v, characters with r2v. */
function videoModeRules(facts: VideoRequestFacts): RuleViolation[] {
  const out: RuleViolation[] = [];
  const frames = facts.startFrame !== undefined || facts.endFrame !== undefined;
  if (facts.mode === 'i2v' && facts.startFrame === undefined)
    out.push(bad('initial_frame', 'mode i2v needs initial_frame (a local image path or a generated image media id).'));
  if (facts.mode === 'r2v' && facts.references === 0 && facts.characters.length === 0)
    out.push(bad('reference_images', 'mode r2v needs reference_images or reference_entities.'));
  if (facts.mode !== 'i2v' && frames)
    out.push(
      bad(
        facts.startFrame !== undefined ? 'initial_frame' : 'end_frame',
        `initial_frame and end_frame belong to mode i2v, not ${facts.mode}.`,
      ),
    );
  if (facts.mode !== 'r2v' && facts.references > 0)
    out.push(
      bad('reference_images', `reference_images belong to mode r2v (or gflow_generate_image), not ${facts.mode}.`),
    );
  if (facts.endFrame !== undefined && facts.startFrame === undefined)
    out.push(bad('end_frame', 'end_frame needs initial_frame.'));
  if (facts.characters.length > 0 && facts.mode !== 'r2v')
    out.push(
      migrated('reference_entities', `Characters can be attached to r2v only on flow.google.com, not ${facts.mode}.`),
    );
  if (facts.endFrame === 'media')
    out.push(
      migrated(
        'end_frame',
        'end_frame must be a local file on flow.google.com; a media id end frame is not supported.',
      ),
    );
  return out;
}

/** Resolution (Omni only) and the reference caps, saved characters included. */
function videoModelRules(facts: VideoRequestFacts, named: VideoModel | undefined): RuleViolation[] {
  const out: RuleViolation[] = [];
  if (facts.resolution !== undefined && named?.family !== 'omni')
    out.push(
      bad(
        'resolution',
        `resolution is supported on the Omni models only${named ? `, not ${named.label}` : '; name model omni_flash or omni_1_2_flash'}. Nothing was spent.`,
      ),
    );
  if (facts.mode !== 'r2v') return out;
  const mentioned = facts.references + facts.characters.length;
  const capParameter = facts.references > videoRefCap(named) ? 'reference_images' : 'reference_entities';
  if (named !== undefined && mentioned > named.refCap)
    out.push(
      named.refCap === 0
        ? {
            parameter: 'model',
            code: 'model-mode-incompatibility',
            detail: `${named.label} takes no references; r2v needs omni_flash, omni_1_2_flash, veo_lite or veo_fast.`,
          }
        : bad(
            capParameter,
            `${named.label} takes at most ${named.refCap} references, saved characters included; got ${mentioned}.`,
          ),
    );
  if (named === undefined && mentioned > videoRefCap(undefined))
    out.push(
      bad(
        capParameter,
        `Without a model, r2v takes at most ${videoRefCap(undefined)} references (saved characters included); name omni_flash for up to 7.`,
      ),
    );
  return out;
}

/** The duration a request gets on its model, and the rules it breaks doing so. */
function videoDurationRules(
  facts: VideoRequestFacts,
  model: VideoModel | undefined,
): { duration: number | undefined; violations: RuleViolation[] } {
  const { duration, mode } = facts;
  if (mode === 'r2v' && r2vPinsDuration(model)) {
    if (duration !== undefined && duration !== R2V_VEO_SECONDS)
      return {
        duration: R2V_VEO_SECONDS,
        violations: [
          bad(
            'duration',
            `r2v on ${model?.label ?? 'the default model'} accepts only duration ${R2V_VEO_SECONDS} (shorter requests drop the references and bill text-to-video); use omni_flash or omni_1_2_flash for ${duration} s.`,
          ),
        ],
      };
    return { duration: R2V_VEO_SECONDS, violations: [] };
  }
  if (duration === undefined) return { duration, violations: [] };
  const allowed = videoDurationsOf(model);
  const label = model?.label ?? 'the default model';
  if (!allowed.includes(duration))
    return {
      duration,
      violations: [
        bad('duration', `duration ${duration} is not offered by ${label}; accepted: ${allowed.join(', ')}.`),
      ],
    };
  if (facts.endFrame !== undefined && duration > maxDurationWithEndFrame(model))
    return {
      duration,
      violations: [
        bad(
          'duration',
          `${model?.label ?? 'The default model'} keeps an end frame only up to ${maxDurationWithEndFrame(model)} s (above it Flow drops the end frame and bills a start-only clip).`,
        ),
      ],
    };
  return { duration, violations: [] };
}

/** Every rule of a video request that needs no browser; i2v without a model runs on Veo 3.1 - Lite. */
export function judgeVideoRequest(facts: VideoRequestFacts): VideoVerdict {
  const out = basicRules(facts, VIDEO_ASPECTS);
  if (facts.uiMode === 'agentic')
    out.push(
      bad(
        'ui_mode',
        'ui_mode="agentic" is not available for video: there is no agentic video driver. Use auto or classic.',
      ),
    );
  const named = facts.model === undefined ? undefined : findVideoModel(facts.model);
  if (facts.model !== undefined && named === undefined)
    out.push(bad('model', `Unknown video model "${facts.model}". Accepted: ${videoModelSpellings().join(', ')}.`));
  out.push(...characterRules(facts.characters), ...videoModeRules(facts), ...videoModelRules(facts, named));
  const model = named ?? (facts.mode === 'i2v' ? findVideoModel(DEFAULT_I2V_VIDEO_MODEL) : undefined);
  const timing = videoDurationRules(facts, model);
  return { violations: [...out, ...timing.violations], model, duration: timing.duration };
}

/** The error a violation is on every surface: one class per code, the parameter in its extensions. */
export function violationError(violation: RuleViolation): GflowError {
  const options = { extensions: { parameter: violation.parameter } };
  switch (violation.code) {
    case 'bad-parameter':
      return new BadParameterError(violation.detail, options);
    case 'flow-host-migrated':
      return new FlowHostMigratedError(violation.detail, options);
    case 'model-mode-incompatibility':
      return new ModelModeIncompatibilityError(violation.detail, options);
  }
}

/** Throws the first violation of a verdict as its error; returns the verdict when there is none. */
export function requireNoViolation<V extends { readonly violations: readonly RuleViolation[] }>(verdict: V): V {
  const first = verdict.violations[0];
  if (first !== undefined) throw violationError(first);
  return verdict;
}
