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
import type { ImagePlan, MediaRef, VideoPlan } from '../operations/validateGeneration.js';
import { readFileHead } from '../output/fileHead.js';

/** A reference ready for the driver: a local file to upload, with the name Flow should list. */
export interface LocalReference {
  readonly path: string;
  readonly displayName: string;
  /** The catalogued media id when the user passed one. */
  readonly mediaId?: string;
  /** The Flow project that media was made in, when known. */
  readonly projectId?: string;
  /** The name Flow's library lists the media by (the catalog's display name), when recorded. */
  readonly flowName?: string;
}

/** A local image path: canonicalised once (symlinks resolved), ≤ 20 MB, PNG/JPEG/WebP/GIF by magic bytes. */
export function checkLocalImage(value: string, parameter: string, cwd: string): LocalReference {
  const resolved = path.resolve(cwd, value);
  let real: string;
  let size: number;
  try {
    real = fs.realpathSync(resolved);
    const stat = fs.statSync(real);
    if (!stat.isFile()) throw new Error('not a file');
    size = stat.size;
  } catch {
    throw new BadParameterError(`${parameter}: no readable image file at that path.`, { extensions: { parameter } });
  }
  if (size > MAX_UPLOAD_BYTES)
    throw new BadParameterError(`${parameter}: the image is larger than 20 MB.`, { extensions: { parameter } });
  if (sniffImage(readFileHead(real)) === null) {
    throw new BadParameterError(`${parameter}: the file is not a PNG, JPEG, WebP or GIF image.`, {
      extensions: { parameter },
    });
  }
  return { path: real, displayName: path.basename(real) };
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

/**
 * Turns a user reference into a local file: a path is checked as above; a
 * media UUID must be a catalogued asset of this profile with a verified local
 * copy (size and SHA-256 still match) — Flow on flow.google.com binds frames
 * and references by upload, so the recorded file is uploaded again.
 */
export async function resolveReference(
  catalog: Catalog,
  ref: MediaRef,
  options: { profile: string; parameter: string; cwd: string; role: 'frame' | 'reference' | 'image' },
): Promise<LocalReference> {
  if (ref.kind === 'path') return checkLocalImage(ref.path, options.parameter, options.cwd);
  let resolved: Awaited<ReturnType<Catalog['references']['frame']>>;
  try {
    resolved =
      options.role === 'frame'
        ? await catalog.references.frame(ref.mediaId, { profile: options.profile })
        : await catalog.references.onDisk(ref.mediaId, { profile: options.profile });
  } catch (error) {
    throw naming(error, options.parameter);
  }
  if (!resolved.localFile) {
    throw new ReferenceNotOnDiskError(
      `${options.parameter}: the media id is catalogued but has no verified local file to upload.`,
      {
        extensions: { parameter: options.parameter, media_id: ref.mediaId },
      },
    );
  }
  const checked = checkLocalImage(resolved.localFile.file.path, options.parameter, options.cwd);
  return {
    ...checked,
    displayName: resolved.displayName ?? checked.displayName,
    ...(resolved.displayName ? { flowName: resolved.displayName } : {}),
    mediaId: ref.mediaId,
    ...(resolved.asset.flowProjectId ? { projectId: resolved.asset.flowProjectId } : {}),
  };
}

/**
 * Every reference and frame of a generation as local files (the catalog and the disk only, no
 * browser): run before anything is queued, so a doomed job fails at once on every surface, and
 * again by the job itself (the files may have changed meanwhile).
 */
export async function resolveGenerationInputs(
  catalog: Catalog,
  plan: ImagePlan | VideoPlan,
  profile: string,
  cwd: string = process.cwd(),
): Promise<{ references: LocalReference[]; startFrame?: LocalReference; endFrame?: LocalReference }> {
  const references: LocalReference[] = [];
  for (const [i, ref] of plan.references.entries()) {
    references.push(
      await resolveReference(catalog, ref, {
        profile,
        parameter: `reference_images[${i}]`,
        cwd,
        role: plan.kind === 'image' ? 'image' : 'reference',
      }),
    );
  }
  if (plan.kind === 'image') return { references };
  return {
    references,
    ...(plan.startFrame
      ? {
          startFrame: await resolveReference(catalog, plan.startFrame, {
            profile,
            parameter: 'initial_frame',
            cwd,
            role: 'frame',
          }),
        }
      : {}),
    ...(plan.endFrame
      ? {
          endFrame: await resolveReference(catalog, plan.endFrame, {
            profile,
            parameter: 'end_frame',
            cwd,
            role: 'frame',
          }),
        }
      : {}),
  };
}
