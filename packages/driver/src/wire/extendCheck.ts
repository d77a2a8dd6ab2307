import { type VideoModelName, findVideoModel, looksLikeVideoKey, readVideoKey } from '@gflow/flow-facts';
import type { DecodedCall } from './formBody.js';
import { EXTEND_SUBMIT_RPC, type SubmitVerdict } from './submitCheck.js';
import { allStrings } from './uuid.js';

/** Frames per second of the extend's frame window (flow-captures.md §10). */
export const EXTEND_FPS = 24;

/** The frame window of a clip's last second, 1-based and inclusive: `[d·24 − 23, d·24]` (§10). */
export function lastSecondWindow(durationSeconds: number): readonly [number, number] {
  return [durationSeconds * EXTEND_FPS - (EXTEND_FPS - 1), durationSeconds * EXTEND_FPS];
}

/** What an `fZytfe` body says, read by shape: the source quad `[null, sourceId, start, end]` and the strings around it. */
export interface ExtendBody {
  readonly sourceId: string;
  readonly window: readonly [number, number];
  /** The first string that looks like a video model key, or null. */
  readonly modelKey: string | null;
  readonly strings: readonly string[];
}

function isSourceQuad(value: unknown): value is [null, string, number, number] {
  return (
    Array.isArray(value) &&
    value.length === 4 &&
    value[0] === null &&
    typeof value[1] === 'string' &&
    Number.isInteger(value[2]) &&
    Number.isInteger(value[3])
  );
}

function findSourceQuad(value: unknown, depth = 0): [null, string, number, number] | null {
  if (depth > 6 || !Array.isArray(value)) return null;
  if (isSourceQuad(value)) return value;
  for (const child of value) {
    const found = findSourceQuad(child, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Reads an `fZytfe` inner (§10: `[[[[null, SOURCE, START, END], [null,null,[[[PROMPT]]]],
 * MODEL_KEY, ASPECT_IDX, null, [SCENE_ID, …]]], ctx, [uuid, 2, null, [SCENE_ID, 2]]]`) by shape:
 * the one `[null, id, int, int]` array is the source and its window. Null when there is none.
 */
export function readExtendBody(inner: unknown): ExtendBody | null {
  const quad = findSourceQuad(inner);
  if (quad === null) return null;
  const strings = allStrings(inner);
  return {
    sourceId: quad[1],
    window: [quad[2], quad[3]],
    modelKey: strings.find((s) => looksLikeVideoKey(s)) ?? null,
    strings,
  };
}

export interface ExtendExpectation {
  /** The source clip's workflow id: what the source slot must hold (§10). */
  readonly workflowId: string;
  /** The source clip's media id: billed and never scheduled when it stands in the source slot (§10). */
  readonly mediaId: string;
  readonly window: readonly [number, number];
  readonly prompt: string;
  readonly model: VideoModelName;
}

function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The extend submit guard's check (flow-captures.md §10): `fZytfe`, a body of the captured shape
 * whose source slot is the clip's WORKFLOW id (a media id there is billed and never scheduled),
 * whose frame window is the clip's last second at 24 fps, carrying the prompt and a key of the
 * requested model's family. Anything else is refused before it leaves the browser.
 */
export function checkExtendSubmit(call: DecodedCall, want: ExtendExpectation): SubmitVerdict {
  const problems: string[] = [];
  if (call.rpcId !== EXTEND_SUBMIT_RPC)
    problems.push(`the page sent ${call.rpcId}, not the extend submit ${EXTEND_SUBMIT_RPC}`);
  const body = readExtendBody(call.inner);
  if (body === null) {
    problems.push(
      'the body has no source slot [null, <workflow id>, <start frame>, <end frame>] (not the extend shape gflow knows)',
    );
    return { ok: false, problems, modelKey: null };
  }
  if (body.sourceId === want.mediaId)
    problems.push(
      `the source slot holds the clip's media id ${want.mediaId}, not its workflow id: Flow bills that and never schedules it`,
    );
  else if (body.sourceId !== want.workflowId)
    problems.push(`the source slot holds ${body.sourceId}, not the clip's workflow id ${want.workflowId}`);
  const [start, end] = want.window;
  if (body.window[0] !== start || body.window[1] !== end)
    problems.push(`the frame window is [${body.window.join(', ')}], not the clip's last second [${start}, ${end}]`);
  const prompt = normalise(want.prompt);
  if (prompt !== '' && !body.strings.some((s) => normalise(s).includes(prompt)))
    problems.push('the body does not carry the prompt');
  problems.push(...keyProblems(body.modelKey, want.model));
  return { ok: problems.length === 0, problems, modelKey: body.modelKey };
}

function keyProblems(key: string | null, model: VideoModelName): string[] {
  if (key === null) return ['the body carries no video model key'];
  const info = findVideoModel(model);
  if (info?.keyFamily === null || info === undefined) return [];
  const reading = readVideoKey(key);
  if (reading.family !== info.keyFamily) return [`the model key ${key} is not ${info.label}`];
  if (reading.lowerPriority !== info.lowerPriority)
    return [`the model key ${key} is ${reading.lowerPriority ? '' : 'not '}the Lower Priority tier`];
  return [];
}
