import path from 'node:path';
import { BadParameterError, ReferenceNotFoundError } from '@gflow/errors';
import type { MediaExtension } from '@gflow/flow-facts';
import { z } from 'zod';
import { type SaveTarget, saveMedia } from '../generation/index.js';
import { confineToOutputDir, ensureWritableDirectory } from '../output/confine.js';
import { SURFACE_POLICY } from '../runtime/surfacePolicy.js';
import { withProfileBrowser } from './browserContext.js';
import { profileFilter } from './catalogParams.js';
import { flowUuid, localPath } from '../schemas/params.js';
import type { OperationContext } from '../runtime/operationContext.js';
import { defineOperation } from './operation.js';

const mediaId = flowUuid('media_id').describe('A Flow media id from a generation result or `gflow data list`.');
const outDir = localPath
  .optional()
  .describe(
    'Directory to write into (MCP: inside the output directory GFLOW_CLI_OUTPUT_DIR). Default: the output layout.',
  );
const profileOptional = z
  .string()
  .trim()
  .min(1)
  .optional()
  .describe('Profile name; omitted: search every profile in the catalog.');

/** The catalogued asset a media id names (ambiguous across profiles → refused with the candidates). */
function findAsset(context: OperationContext, id: string, profile: string | undefined) {
  const candidate = context.runtime.catalog.media.requireOne(id, profileFilter(profile));
  return candidate.asset;
}

function outDirFor(context: OperationContext, value: string | undefined): string | undefined {
  if (!value) return undefined;
  const { outputDir } = context.runtime.settings;
  const dir = SURFACE_POLICY[context.surface].confineOutput
    ? confineToOutputDir(outputDir, value, { parameter: 'out_dir', kind: 'dir' })
    : path.resolve(value);
  ensureWritableDirectory(dir, 'out_dir');
  return dir;
}

/** What the project's page showed while the media was fetched: its name and the project's title, kept in the catalog. */
function rememberPageNames(
  context: OperationContext,
  asset: { readonly profileName: string; readonly flowMediaId: string; readonly kind: 'image' | 'video' },
  shown: { readonly display_name: string | null; readonly project_title: string | null; readonly project_id: string },
): void {
  const { catalog } = context.runtime;
  if (shown.display_name !== null)
    catalog.assets.record({
      profile: asset.profileName,
      flowMediaId: asset.flowMediaId,
      kind: asset.kind,
      displayName: shown.display_name,
    });
  if (shown.project_title !== null)
    catalog.projects.upsert({
      profile: asset.profileName,
      flowProjectId: shown.project_id,
      title: shown.project_title,
    });
}

export const downloadMedia = defineOperation({
  name: 'downloadMedia',
  mcpName: 'gflow_download_media',
  title: 'Download generated media again',
  description:
    'Fetches an already-generated asset from its Flow project by media id and writes it to disk: the recovery path for a generation that was billed but whose download failed. Spends nothing. Bytes are verified (magic bytes, the size Flow reports) before the file is written atomically, and the catalog records the file. A retryable failure means pause and call again, not a tight loop.',
  kind: 'create',
  usesBrowser: true,
  input: z.object({ media_id: mediaId, out_dir: outDir, profile: profileOptional }),
  output: z.looseObject({ status: z.literal('ok'), path: z.string(), bytes: z.number() }),
  handler: async (input, context) => {
    // Output rules first: a refused out_dir is refused before anything else runs.
    const dir = outDirFor(context, input.out_dir);
    const asset = findAsset(context, input.media_id, input.profile);
    if (!asset.flowProjectId)
      throw new ReferenceNotFoundError('The catalog does not know which Flow project holds this media.', {
        extensions: { media_id: input.media_id },
      });
    const { downloadMediaById } = await import('@gflow/driver');
    const got = await withProfileBrowser(context, asset.profileName, (browser) =>
      downloadMediaById(browser, {
        projectId: asset.flowProjectId as string,
        mediaId: input.media_id,
        kind: asset.kind,
        signal: context.signal,
      }),
    );
    rememberPageNames(context, asset, got);
    const { outputDir } = context.runtime.settings;
    const stem = asset.kind === 'video' ? input.media_id : `${input.media_id}_1`;
    const target: SaveTarget = dir
      ? { kind: 'dir', dir, stem: input.media_id }
      : { kind: 'layout', outputDir, media: asset.kind, stem };
    const written = await saveMedia(
      context.runtime.catalog,
      { assetId: asset.id, mediaId: input.media_id, bytes: got.bytes, extension: got.extension },
      target,
      { outputDir, recovery: 'Free some space or pick another out_dir, then download it again (spends nothing).' },
    );
    return {
      status: 'ok' as const,
      media_id: input.media_id,
      workflow_id: got.workflow_id,
      profile: asset.profileName,
      project_id: got.project_id,
      path: written.path,
      bytes: written.bytes,
    };
  },
});

function upscaleOperation<S extends readonly [string, ...string[]], const N extends string, const M extends string>(
  kind: 'image' | 'video',
  names: { readonly name: N; readonly mcpName: M },
  scales: S,
  description: string,
) {
  return defineOperation({
    ...names,
    title: kind === 'image' ? 'Upscale an image' : 'Upscale or export a video',
    description,
    kind: 'create',
    usesBrowser: true,
    input: z.object({
      media_id: mediaId,
      scale: z.enum(scales),
      project: flowUuid('project')
        .optional()
        .describe('The Flow project holding the media; default: from the catalog.'),
      out_dir: outDir,
      profile: profileOptional,
    }),
    output: z.looseObject({ status: z.literal('ok'), path: z.string(), bytes: z.number() }),
    handler: async (input, context) => {
      const dir = outDirFor(context, input.out_dir);
      const filter = profileFilter(input.profile);
      const known = context.runtime.catalog.media.lookup(input.media_id, filter);
      if (input.project === undefined && known.length === 0)
        throw new ReferenceNotFoundError(`Media id ${input.media_id} is not in the local catalog.`, {
          extensions: { media_id: input.media_id },
          remediationHint: `Name the Flow project that holds it (project, --project), or use a media id the catalog knows (gflow data list ${kind}s).`,
        });
      // Under several profiles and no project named: the catalog's refusal, with the candidates.
      if (input.project === undefined && known.length > 1)
        context.runtime.catalog.media.requireOne(input.media_id, filter);
      const asset = known.length === 1 ? known[0]?.asset : undefined;
      const projectId = input.project ?? asset?.flowProjectId ?? undefined;
      if (!projectId)
        throw new BadParameterError(
          'Name the project: the catalog does not know which Flow project holds this media.',
          { extensions: { parameter: 'project' } },
        );
      if (asset && asset.kind !== kind)
        throw new BadParameterError(
          `This media is a${asset.kind === 'image' ? 'n image' : ' video'}; use the ${asset.kind} upscale.`,
          { extensions: { parameter: 'media_id' } },
        );
      const driver = await import('@gflow/driver');
      const profile = input.profile ?? asset?.profileName;
      const scale = input.scale as string;
      const got = await withProfileBrowser<{ bytes: Buffer; extension: MediaExtension; profile: string }>(
        context,
        profile,
        async (browser, resolved) => ({
          ...(kind === 'image'
            ? await driver.upscaleImage(browser, {
                projectId,
                mediaId: input.media_id,
                scale: scale as '2k' | '4k',
                signal: context.signal,
              })
            : await driver.upscaleVideo(browser, {
                projectId,
                mediaId: input.media_id,
                scale: scale as '1080p' | '720p' | '270p',
                signal: context.signal,
              })),
          profile: resolved.name,
        }),
      );
      // The upscaled file is a local copy of the media: catalogued with its asset (the asset recorded
      // first when the catalog did not know the media), so data media, data list and doctor see it.
      const owner =
        asset && asset.profileName === got.profile
          ? asset
          : context.runtime.catalog.assets.record({
              profile: got.profile,
              flowMediaId: input.media_id,
              kind,
              flowProjectId: projectId,
            });
      const { outputDir } = context.runtime.settings;
      const stem = `${input.media_id}_${scale}`;
      const written = await saveMedia(
        context.runtime.catalog,
        { assetId: owner.id, mediaId: input.media_id, bytes: got.bytes, extension: got.extension },
        dir ? { kind: 'dir', dir, stem } : { kind: 'layout', outputDir, media: kind, stem },
        { outputDir, recovery: 'Free some space or pick another out_dir, then upscale it again.' },
      );
      return {
        status: 'ok' as const,
        media_id: input.media_id,
        scale,
        project_id: projectId,
        path: written.path,
        bytes: written.bytes,
      };
    },
  });
}

export const upscaleImage = upscaleOperation(
  'image',
  { name: 'upscaleImage', mcpName: 'gflow_upscale_image' },
  ['2k', '4k'],
  'Upscales an already-generated image to 2K or 4K (4K needs Google AI Ultra; Pro has 2K), writes it and catalogues it as a local copy of the media. Spends nothing.',
);
export const upscaleVideo = upscaleOperation(
  'video',
  { name: 'upscaleVideo', mcpName: 'gflow_upscale_video' },
  ['1080p', '720p', '270p'],
  'Upscales an already-generated video to 1080p, downloads the original 720p, or exports a 270p animated GIF, writes it and catalogues it as a local copy of the media. Driven on flow.google.com; measured free.',
);
