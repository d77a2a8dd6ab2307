import type { Catalog } from '@gflow/catalog';
import { BadParameterError, ReferenceNotFoundError } from '@gflow/errors';
import type { ExtendPlan } from './plan.js';

/**
 * The clip an extension continues, as the catalog knows it when the request is made: what the
 * driver needs to open its project, find its tile and check the submit (flow-captures §10: the
 * source slot carries the workflow id, the frame window is its last second).
 */
export interface ExtendSourceFacts {
  readonly media_id: string;
  readonly workflow_id: string;
  readonly project_id: string;
  readonly duration_seconds: number;
  readonly aspect_ratio: string | null;
}

const refused = (detail: string): BadParameterError =>
  new BadParameterError(`media_id: ${detail}`, { extensions: { parameter: 'media_id' } });

/**
 * Reads the source of an extension from the catalog, before a token is taken or a task exists: a
 * media id the profile's catalog does not have is reference-not-found (exit 32); one that is not a
 * finished video with its Flow project, workflow id and length is refused naming `media_id`.
 */
export function resolveExtendSource(catalog: Catalog, plan: ExtendPlan, profile: string): ExtendSourceFacts {
  const { mediaId } = plan.source;
  const asset = catalog.assets.getByMediaId(profile, mediaId);
  if (asset === undefined)
    throw new ReferenceNotFoundError(`media_id: no media ${mediaId} in the catalog of profile "${profile}".`, {
      extensions: { parameter: 'media_id', media_id: mediaId },
      remediationHint: "List this profile's videos with 'gflow data list videos' (gflow_list_media).",
    });
  if (asset.kind !== 'video') throw refused(`${mediaId} is an ${asset.kind}; only a video can be extended.`);
  if (asset.status !== 'ready') throw refused(`${mediaId} is ${asset.status}, not a finished video.`);
  if (!asset.flowProjectId || !asset.flowWorkflowId)
    throw refused(
      `the catalog does not know the Flow project and workflow id of ${mediaId} (an extension names the clip by its workflow id); download it again with 'gflow data download ${mediaId}'.`,
    );
  if (asset.flowWorkflowId === mediaId)
    throw refused(
      `the workflow id recorded for ${mediaId} is its media id; Flow bills an extension of a media id and never makes it.`,
    );
  // Recorded when the clip was saved: the duration asked for, else the one its model key names.
  const seconds = asset.durationSeconds;
  if (seconds === null || !Number.isInteger(seconds) || seconds < 1 || seconds > 60)
    throw refused(
      `the catalog does not know how long ${mediaId} is (whole seconds), which sets the frames it continues from.`,
    );
  return {
    media_id: mediaId,
    workflow_id: asset.flowWorkflowId,
    project_id: asset.flowProjectId,
    duration_seconds: seconds,
    aspect_ratio: asset.aspectRatio,
  };
}
