import type { Catalog } from '@gflow/catalog';
import type { FlowGenerationResult as Generated, ReferenceInput as DriverReference } from '@gflow/driver';
import type { ResolvedInput } from './inputs.js';

/**
 * How a reference goes to the driver (seed 000 #995, #772): in place — the asset already in the
 * run's project, attached through the picker by the name Flow lists it by — when it is a catalogued
 * media id of that project, or a local file gflow uploaded into that project before (by content,
 * the size and SHA-256 resolved with the request); each keeps its verified local file as the
 * fallback the driver uploads only when the picker does not list the asset. Otherwise the file is
 * uploaded. Without a known project (a new one) every reference is an upload.
 */
export function placeReference(
  catalog: Catalog,
  ref: ResolvedInput,
  where: { readonly profile: string; readonly project: string | undefined },
): DriverReference {
  const upload: DriverReference = { path: ref.path, displayName: ref.displayName };
  if (where.project === undefined) return upload;
  if (ref.mediaId !== undefined && ref.projectId === where.project && ref.flowName !== undefined)
    return { mediaId: ref.mediaId, displayName: ref.flowName, fallbackPath: ref.path };
  const known = catalog.uploads.find(where.profile, where.project, { sha256: ref.sha256, bytes: ref.bytes });
  if (known === undefined) return upload;
  return { mediaId: known.mediaId, displayName: known.displayName, fallbackPath: ref.path };
}

/** Whether a reference sent in place came back as an upload (the picker did not list it). */
export function fellBackToUpload(sent: readonly DriverReference[], generated: Generated): boolean {
  const fallbacks = new Set(sent.flatMap((r) => ('fallbackPath' in r && r.fallbackPath ? [r.fallbackPath] : [])));
  return generated.uploads.some((u) => u.sourcePath !== undefined && fallbacks.has(u.sourcePath));
}

/**
 * Remembers what this run uploaded, by the content its request resolved, so the next run with the
 * same file mentions it in place (an upload of a file the request did not resolve is not remembered).
 */
export function rememberUploads(
  catalog: Catalog,
  generated: Generated,
  profile: string,
  inputs: readonly ResolvedInput[],
): void {
  const byPath = new Map(inputs.map((input) => [input.path, input]));
  for (const upload of generated.uploads) {
    const input = upload.sourcePath === undefined ? undefined : byPath.get(upload.sourcePath);
    if (input === undefined) continue;
    catalog.uploads.record({
      profile,
      projectId: generated.projectId,
      sha256: input.sha256,
      bytes: input.bytes,
      mediaId: upload.mediaId,
      displayName: upload.displayName,
      sourcePath: input.path,
    });
  }
}
