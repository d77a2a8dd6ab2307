import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { Catalog } from '@gflow/catalog';
import type { FlowSession } from '@gflow/driver';
import type { LocalReference } from './references.js';

type DriverReference = NonNullable<Parameters<FlowSession['generateImage']>[0]['references']>[number];
type Generated = Awaited<ReturnType<FlowSession['generateImage']>>;

/** A local file's content key: SHA-256 and size. */
export function contentOf(file: string): { sha256: string; bytes: number } {
  const bytes = fs.readFileSync(file);
  return { sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
}

/**
 * How a reference goes to the driver (seed 000 #995, #772): in place — the asset already in the
 * run's project, attached through the picker by the name Flow lists it by — when it is a catalogued
 * media id of that project, or a local file gflow uploaded into that project before (by content);
 * each keeps its verified local file as the fallback the driver uploads only when the picker does
 * not list the asset. Otherwise the file is uploaded. Without a known project (a new one) every
 * reference is an upload.
 */
export function placeReference(
  catalog: Catalog,
  ref: LocalReference,
  where: { readonly profile: string; readonly project: string | undefined },
): DriverReference {
  const upload: DriverReference = { path: ref.path, displayName: ref.displayName };
  if (where.project === undefined) return upload;
  if (ref.mediaId !== undefined && ref.projectId === where.project && ref.flowName !== undefined)
    return { mediaId: ref.mediaId, displayName: ref.flowName, fallbackPath: ref.path };
  const known = catalog.uploads.find(where.profile, where.project, contentOf(ref.path));
  if (known === undefined) return upload;
  return { mediaId: known.mediaId, displayName: known.displayName, fallbackPath: ref.path };
}

/** Whether a reference sent in place came back as an upload (the picker did not list it). */
export function fellBackToUpload(sent: readonly DriverReference[], generated: Generated): boolean {
  const fallbacks = new Set(sent.flatMap((r) => ('fallbackPath' in r && r.fallbackPath ? [r.fallbackPath] : [])));
  return generated.uploads.some((u) => u.sourcePath !== undefined && fallbacks.has(u.sourcePath));
}

/** Remembers what this run uploaded, by content, so the next run with the same file mentions it in place. */
export function rememberUploads(catalog: Catalog, generated: Generated, profile: string): void {
  for (const upload of generated.uploads) {
    if (upload.sourcePath === undefined) continue;
    let content: { sha256: string; bytes: number };
    try {
      content = contentOf(upload.sourcePath);
    } catch {
      continue;
    }
    catalog.uploads.record({
      profile,
      projectId: generated.projectId,
      ...content,
      mediaId: upload.mediaId,
      displayName: upload.displayName,
      sourcePath: upload.sourcePath,
    });
  }
}
