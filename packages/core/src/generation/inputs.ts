import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Catalog } from '@gflow/catalog';
import {
  BadParameterError,
  type GflowError,
  type GflowErrorOptions,
  ReferenceNotOnDiskError,
  isGflowError,
} from '@gflow/errors';
import { MAX_UPLOAD_BYTES, sniffImage } from '@gflow/flow-facts';
import type { GenerationPlan, MediaRef } from './plan.js';

/**
 * A reference or frame resolved once, when the request is made: the local file gflow uploads (or
 * keeps as the fallback of an in-place attach), what identifies its content (size and SHA-256, so
 * the job verifies it instead of resolving it again and the upload lookup needs no second hash),
 * and what the catalog knows of it.
 */
export interface ResolvedInput {
  /** Canonical (symlinks resolved). */
  readonly path: string;
  readonly bytes: number;
  readonly sha256: string;
  /** The name Flow should list an upload by. */
  readonly displayName: string;
  /** The catalogued media id, when the user passed one. */
  readonly mediaId?: string | undefined;
  /** The Flow project that media was made in, when known. */
  readonly projectId?: string | undefined;
  /** The name Flow's library lists the media by (the catalog's display name), when recorded. */
  readonly flowName?: string | undefined;
}

/** Every input of one request, resolved. */
export interface ResolvedInputs {
  readonly references: readonly ResolvedInput[];
  readonly startFrame?: ResolvedInput | undefined;
  readonly endFrame?: ResolvedInput | undefined;
}

const refused = (parameter: string, detail: string): BadParameterError =>
  new BadParameterError(`${parameter}: ${detail}`, { extensions: { parameter } });

/** The canonical path and size of a regular file, or a refusal naming the parameter. */
function statImage(value: string, parameter: string, cwd: string): { real: string; size: number } {
  try {
    const real = fs.realpathSync(path.resolve(cwd, value));
    const stat = fs.statSync(real);
    if (stat.isFile()) return { real, size: stat.size };
  } catch {
    // Refused below, in the same words as a directory.
  }
  throw refused(parameter, 'no readable image file at that path.');
}

/**
 * A local image read once: canonical path, ≤ 20 MB (checked before the read), PNG/JPEG/WebP/GIF by
 * magic bytes, size and SHA-256 from the same bytes.
 */
export function readLocalImage(value: string, parameter: string, cwd: string): ResolvedInput {
  const { real, size } = statImage(value, parameter, cwd);
  if (size > MAX_UPLOAD_BYTES) throw refused(parameter, 'the image is larger than 20 MB.');
  const bytes = fs.readFileSync(real);
  if (sniffImage(bytes.subarray(0, 16)) === null)
    throw refused(parameter, 'the file is not a PNG, JPEG, WebP or GIF image.');
  return {
    path: real,
    bytes: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    displayName: path.basename(real),
  };
}

/** The catalog's refusal of a media id, restated with the parameter that carried it (same class and code). */
function naming(error: unknown, parameter: string): unknown {
  if (!isGflowError(error) || error.extensions['parameter'] !== undefined) return error;
  const Class = error.constructor as new (detail: string, options: GflowErrorOptions) => GflowError;
  return new Class(`${parameter}: ${error.detail}`, {
    cause: error,
    ...(error.remediationHint === undefined ? {} : { remediationHint: error.remediationHint }),
    extensions: { ...error.extensions, parameter },
  });
}

type Role = 'frame' | 'reference' | 'image';

/**
 * A media id as an input: a catalogued asset of this profile with a local copy of the recorded
 * size (the catalog checks it without hashing), read once here and held against the recorded
 * SHA-256 — flow.google.com binds frames and references by upload, so that file is what is sent.
 */
async function resolveMediaId(
  catalog: Catalog,
  mediaId: string,
  options: { profile: string; parameter: string; cwd: string; role: Role },
): Promise<ResolvedInput> {
  const lookup = { profile: options.profile, checkSha256: false };
  let resolved: Awaited<ReturnType<Catalog['references']['frame']>>;
  try {
    resolved =
      options.role === 'frame'
        ? await catalog.references.frame(mediaId, lookup)
        : await catalog.references.onDisk(mediaId, lookup);
  } catch (error) {
    throw naming(error, options.parameter);
  }
  const file = resolved.localFile?.file;
  const read = file ? readLocalImage(file.path, options.parameter, options.cwd) : undefined;
  if (file === undefined || read === undefined || (file.sha256 !== null && file.sha256 !== read.sha256)) {
    throw new ReferenceNotOnDiskError(
      `${options.parameter}: the media id is catalogued but has no verified local file to upload.`,
      { extensions: { parameter: options.parameter, media_id: mediaId } },
    );
  }
  const name = resolved.displayName ?? undefined;
  return {
    ...read,
    displayName: name ?? read.displayName,
    flowName: name,
    mediaId,
    projectId: resolved.asset.flowProjectId ?? undefined,
  };
}

function resolveOne(
  catalog: Catalog,
  ref: MediaRef,
  options: { profile: string; parameter: string; cwd: string; role: Role },
): Promise<ResolvedInput> {
  return ref.kind === 'path'
    ? Promise.resolve(readLocalImage(ref.path, options.parameter, options.cwd))
    : resolveMediaId(catalog, ref.mediaId, options);
}

/**
 * Every reference and frame of a request as local files (the catalog and the disk only, no
 * browser), each read once: run when the request is made, before a token is taken or a task
 * exists, so a doomed job fails at once on every surface. The job verifies them ({@link verifyInputs}).
 */
export async function resolveInputs(
  catalog: Catalog,
  plan: GenerationPlan,
  profile: string,
  cwd: string = process.cwd(),
): Promise<ResolvedInputs> {
  const references: ResolvedInput[] = [];
  const role: Role = plan.kind === 'image' ? 'image' : 'reference';
  for (const [i, ref] of plan.references.entries()) {
    const read = await resolveOne(catalog, ref, { profile, parameter: `reference_images[${i}]`, cwd, role });
    // The same image given twice (`--ref c.jpg --ref c.jpg`, or a file and its media id) is one
    // reference: attached once, uploaded at most once.
    if (!references.some((r) => r.sha256 === read.sha256 && r.bytes === read.bytes)) references.push(read);
  }
  if (plan.kind !== 'video') return { references };
  const frame = (ref: MediaRef | undefined, parameter: string) =>
    ref === undefined ? undefined : resolveOne(catalog, ref, { profile, parameter, cwd, role: 'frame' });
  return {
    references,
    startFrame: await frame(plan.startFrame, 'initial_frame'),
    endFrame: await frame(plan.endFrame, 'end_frame'),
  };
}

/** Each input with the parameter that named it. */
export function namedInputs(inputs: ResolvedInputs): Array<[parameter: string, input: ResolvedInput]> {
  return [
    ...inputs.references.map((r, i): [string, ResolvedInput] => [`reference_images[${i}]`, r]),
    ...(inputs.startFrame ? [['initial_frame', inputs.startFrame] as [string, ResolvedInput]] : []),
    ...(inputs.endFrame ? [['end_frame', inputs.endFrame] as [string, ResolvedInput]] : []),
  ];
}

/**
 * The job's check of what the request resolved: each file read once more and held against its
 * recorded size and SHA-256. A file changed or gone since the request was made is refused before
 * anything is opened (nothing was sent).
 */
export function verifyInputs(inputs: ResolvedInputs): void {
  for (const [parameter, input] of namedInputs(inputs)) {
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(input.path);
    } catch {
      throw refused(parameter, `${input.displayName} is gone since the request was made; nothing was sent.`);
    }
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (bytes.length !== input.bytes || sha256 !== input.sha256)
      throw refused(parameter, `${input.displayName} changed since the request was made; nothing was sent.`);
  }
}
