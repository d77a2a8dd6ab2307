import fs from 'node:fs';
import path from 'node:path';
import { BadParameterError, InvalidOutputError, ReferenceNotOnDiskError, ReferenceNotUsableError } from '@gflow/errors';
import { assertNotDirectory, confineToOutputDir, ensureWritableDirectory } from '../output/confine.js';
import type { OperationContext } from '../runtime/operationContext.js';
import { profileFilter } from '../operations/catalogParams.js';
import { SURFACE_POLICY } from '../runtime/surfacePolicy.js';

/** The catalogued video a media id input names. */
export interface StitchAsset {
  readonly id: number;
  readonly profileName: string;
  readonly mediaId: string;
}

/** A clip to stitch, resolved: the argument as given, the file read, and its catalogued asset (a media id). */
export interface StitchInput {
  readonly label: string;
  readonly path: string;
  readonly asset: StitchAsset | null;
}

const MEDIA_ID = /^[\w-]{1,128}$/;

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Each input as a file or a catalogued video's verified local copy: an existing file wins (MCP:
 * only inside the output directory, like every path an agent names), else a media id the catalog
 * knows (a video with a local copy of the recorded size and SHA-256: stitching downloads nothing).
 * Refused before anything is read: a path that is no file and no known media id (2), an image
 * (reference-not-usable), a video never downloaded (reference-not-on-disk), an unknown id (32).
 */
export async function resolveStitchInputs(
  values: readonly string[],
  context: OperationContext,
  profile: string | undefined,
): Promise<StitchInput[]> {
  const out: StitchInput[] = [];
  for (const value of values) out.push(await resolveOne(value, context, profile));
  return out;
}

async function resolveOne(value: string, context: OperationContext, profile: string | undefined): Promise<StitchInput> {
  const { outputDir } = context.runtime.settings;
  const confine = SURFACE_POLICY[context.surface].confineOutput;
  const asPath = confine
    ? confineToOutputDir(outputDir, value, { parameter: 'inputs', kind: 'file' })
    : path.resolve(value);
  if (isFile(asPath)) return { label: value, path: asPath, asset: null };
  if (!MEDIA_ID.test(value) || /\.mp4$/i.test(value))
    throw new BadParameterError(`inputs: ${value} is neither a file nor a media id.`, {
      extensions: { parameter: 'inputs', input: value },
    });
  const { asset } = context.runtime.catalog.media.requireOne(value, profileFilter(profile));
  if (asset.kind !== 'video')
    throw new ReferenceNotUsableError(`inputs: ${value} is an image; only videos can be stitched.`, {
      extensions: { parameter: 'inputs', media_id: value },
    });
  const file = await context.runtime.catalog.localFiles.firstVerified(asset.id);
  if (file === null)
    throw new ReferenceNotOnDiskError(`inputs: ${value} has no local copy to stitch.`, {
      remediationHint: `Download it first (gflow data download ${value}; spends nothing), or pass the file.`,
      extensions: { parameter: 'inputs', media_id: value },
    });
  return {
    label: value,
    path: file.file.path,
    asset: { id: asset.id, profileName: asset.profileName, mediaId: asset.flowMediaId },
  };
}

/**
 * Where the stitched MP4 goes: MCP confined inside the output directory; the CLI's `-o` anywhere.
 * An `.mp4` file name, never a directory; an existing file only with overwrite.
 */
export function stitchTarget(output: string, overwrite: boolean, context: OperationContext): string {
  const { outputDir } = context.runtime.settings;
  const target = SURFACE_POLICY[context.surface].confineOutput
    ? confineToOutputDir(outputDir, output, { parameter: 'output', kind: 'file' })
    : path.resolve(output);
  assertNotDirectory(/[/\\]$/.test(output) ? `${target}/` : target, 'output', outputDir);
  if (!/\.mp4$/i.test(target))
    throw new InvalidOutputError('output must name an .mp4 file.', { extensions: { parameter: 'output' } });
  ensureWritableDirectory(path.dirname(target), 'output');
  if (!overwrite && fs.existsSync(target))
    throw new InvalidOutputError(`output: ${target} already exists and would be replaced. Nothing was written.`, {
      remediationHint: 'Name another file, or pass --force (overwrite=true) to replace it.',
      extensions: { parameter: 'output', existing: [target] },
    });
  return target;
}
