import { type VideoModelName, findVideoModel, looksLikeVideoKey, readVideoKey } from '@gflow/flow-facts';
import type { DecodedCall } from './formBody.js';
import { allStrings } from './uuid.js';

/** The rpcs that carry a generation submit (flow-wire §3a). */
export const IMAGE_SUBMIT_RPC = 'ogiZ0b';
export const VIDEO_SUBMIT_RPCS = ['YhhmEf', 'eb1hJf', 'nprQif', 'MZZa6b'] as const;
/** The scene editor's extend (flow-captures.md §10); its body is checked by extendCheck.ts. */
export const EXTEND_SUBMIT_RPC = 'fZytfe';
export const SUBMIT_RPCS: readonly string[] = [IMAGE_SUBMIT_RPC, ...VIDEO_SUBMIT_RPCS, EXTEND_SUBMIT_RPC];

export interface SubmitVerdict {
  readonly ok: boolean;
  /** What does not match, in plain words; empty when ok. */
  readonly problems: readonly string[];
  /** The model key or token found in the body, if any. */
  readonly modelKey: string | null;
}

function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function containsPrompt(strings: readonly string[], prompt: string): boolean {
  const want = normalise(prompt);
  return want === '' || strings.some((s) => normalise(s).includes(want));
}

function missingIds(strings: readonly string[], ids: readonly string[]): string[] {
  return ids.filter((id) => !strings.some((s) => s === id || s.includes(id)));
}

function missingCharacters(strings: readonly string[], entityIds: readonly string[]): string[] {
  const missing = missingIds(strings, entityIds);
  return missing.length > 0 ? [`the body lacks saved character id(s) ${missing.join(', ')}`] : [];
}

export interface ImageExpectation {
  readonly token: string;
  readonly prompt: string;
  readonly referenceIds: readonly string[];
  /** Saved characters' entity ids (flow-wire states only that they ride in the submit; the slot is not checked). */
  readonly entityIds?: readonly string[];
}

/** image: `ogiZ0b`, the requested model token, every reference id and every character's entity id (flow-wire §3a). */
export function checkImageSubmit(call: DecodedCall, want: ImageExpectation): SubmitVerdict {
  const problems: string[] = [];
  if (call.rpcId !== IMAGE_SUBMIT_RPC)
    problems.push(`the page sent ${call.rpcId}, not the image submit ${IMAGE_SUBMIT_RPC}`);
  const strings = allStrings(call.inner ?? call.innerJson);
  const hasToken = strings.includes(want.token);
  if (!hasToken) problems.push(`the body does not carry the model token ${want.token}`);
  const missing = missingIds(strings, want.referenceIds);
  if (missing.length > 0) problems.push(`the body lacks reference id(s) ${missing.join(', ')}`);
  const entityIds = want.entityIds ?? [];
  problems.push(...missingCharacters(strings, entityIds));
  if (want.referenceIds.length + entityIds.length === 0 && !containsPrompt(strings, want.prompt))
    problems.push('the body does not carry the prompt');
  return { ok: problems.length === 0, problems, modelKey: hasToken ? want.token : null };
}

export interface VideoExpectation {
  readonly mode: 't2v' | 'i2v' | 'r2v';
  readonly model: VideoModelName | null;
  readonly duration: number | null;
  readonly prompt: string;
  readonly startId: string | null;
  readonly endId: string | null;
  readonly referenceIds: readonly string[];
  /** Saved characters' entity ids (r2v). */
  readonly entityIds?: readonly string[];
}

/** The rpc ids a video submit of this shape may leave on. */
export function expectedVideoRpcs(want: Pick<VideoExpectation, 'mode' | 'endId'>): readonly string[] {
  if (want.mode === 't2v') return ['YhhmEf'];
  if (want.mode === 'r2v') return ['MZZa6b'];
  return want.endId === null ? ['eb1hJf'] : ['nprQif', 'eb1hJf'];
}

/**
 * Video submit assertions (flow-wire §3a): the right rpc, a key with the mode's infix
 * (`_i2v_`, `_r2v_`, interpolation) and the requested family, tier and duration, every
 * bound id and every saved character's entity id. An empty Frames chip silently submits t2v; r2v below 8 s degrades to a t2v key —
 * both are caught here.
 */
export function checkVideoSubmit(call: DecodedCall, want: VideoExpectation): SubmitVerdict {
  const problems: string[] = [];
  const rpcs = expectedVideoRpcs(want);
  if (!rpcs.includes(call.rpcId))
    problems.push(`the page sent ${call.rpcId}, expected ${rpcs.join(' or ')} for ${describe(want)}`);
  const strings = allStrings(call.inner ?? call.innerJson);
  const key = strings.find((s) => looksLikeVideoKey(s) && s !== want.prompt) ?? null;
  if (key === null) {
    problems.push('the body carries no video model key');
    return { ok: false, problems, modelKey: null };
  }
  const reading = readVideoKey(key);
  const wantModes =
    want.mode === 'i2v'
      ? want.endId === null
        ? ['i2v']
        : call.rpcId === 'nprQif'
          ? ['interpolation']
          : ['i2v', 'interpolation']
      : [want.mode];
  if (!wantModes.includes(reading.mode))
    problems.push(`the model key ${key} is a ${reading.mode} key, not ${wantModes.join('/')}`);
  if (want.model !== null) {
    const info = findVideoModel(want.model);
    if (info !== undefined && info.keyFamily !== null) {
      if (reading.family !== info.keyFamily) problems.push(`the model key ${key} is not ${info.label}`);
      const wantLp = info.lowerPriority;
      if (reading.family === 'veo_lite' && reading.lowerPriority !== wantLp) {
        problems.push(`the model key ${key} is ${reading.lowerPriority ? '' : 'not '}the Lower Priority tier`);
      }
    } else if (reading.family !== 'unknown') {
      problems.push(`the model key ${key} belongs to ${reading.family}, not ${want.model}`);
    }
  }
  if (want.duration !== null && reading.mode !== 'interpolation') {
    const seconds = reading.seconds ?? (reading.family.startsWith('veo') ? 8 : null);
    if (seconds !== null && seconds !== want.duration)
      problems.push(`the model key ${key} is for ${seconds} s, not ${want.duration} s`);
  }
  const ids = [want.startId, want.endId, ...want.referenceIds].filter((id): id is string => id !== null);
  const missing = missingIds(strings, ids);
  if (missing.length > 0) problems.push(`the body lacks bound id(s) ${missing.join(', ')}`);
  problems.push(...missingCharacters(strings, want.entityIds ?? []));
  if (want.mode !== 'r2v' && !containsPrompt(strings, want.prompt)) problems.push('the body does not carry the prompt');
  return { ok: problems.length === 0, problems, modelKey: key };
}

function describe(want: Pick<VideoExpectation, 'mode' | 'endId'>): string {
  if (want.mode === 'i2v') return want.endId === null ? 'image-to-video' : 'start+end interpolation';
  return want.mode === 'r2v' ? 'reference-to-video' : 'text-to-video';
}
