import type { Catalog } from '@gflow/catalog';
import type { FlowGenerationResult, FlowSession } from '@gflow/driver';
import { CancelledError, WireFormatError } from '@gflow/errors';
import { clipSecondsOfKey, videoModelOfKey } from '@gflow/flow-facts';
import type { ProgressEvent } from '../runtime/progressPhases.js';
import { type GenerationRequest, askedProjectName, aspectOf, mediaKindOf } from './request.js';
import { clipSecondsOf } from './clipLength.js';
import { type SaveTarget, saveMedia } from './saveMedia.js';
import type { CompletedGeneration, GeneratedMedia } from './schemas.js';

type Item = FlowGenerationResult['items'][number];

/** What the save phase is handed. */
export interface SaveContext {
  readonly catalog: Catalog;
  readonly session: Pick<FlowSession, 'download'>;
  readonly request: GenerationRequest;
  readonly profile: string;
  readonly operationId: number;
  readonly outputDir: string;
  readonly signal: AbortSignal;
  readonly progress: (event: ProgressEvent) => void;
}

/** The model that ran: the one asked for, else (no video model named: Flow's composer chose) the one the submit's key names. */
export function modelOf(request: GenerationRequest, item: Pick<Item, 'modelKey'>): string | null {
  if (request.plan.model !== undefined) return request.plan.model;
  return request.kind === 'image' ? null : (videoModelOfKey(item.modelKey)?.name ?? null);
}

/**
 * A clip's length in whole seconds: the one asked for, else the one its model key names (`…_8s`;
 * flow-captures §10: an extension's frame window comes from it). Null for an image or a key without one.
 */
function durationOf(request: GenerationRequest, item: Pick<Item, 'modelKey'>): number | null {
  // An extension's length is measured from its bytes once downloaded (recordMeasuredLength).
  if (request.plan.kind === 'image' || request.plan.kind === 'extend') return null;
  if (request.plan.kind === 'video' && request.plan.duration !== undefined) return request.plan.duration;
  return clipSecondsOfKey(item.modelKey);
}

/** Assets first: if a download fails, the catalog still knows what Flow made (and billed). */
function recordAssets(ctx: SaveContext, generated: FlowGenerationResult): number[] {
  const { catalog, request, profile } = ctx;
  // The title the project's page shows (a new project's, as Flow confirmed it), else the one asked for.
  const title = generated.projectTitle ?? askedProjectName(request);
  catalog.projects.upsert({ profile, flowProjectId: generated.projectId, ...(title ? { title } : {}) });
  return generated.items.map((item, i) => {
    const asset = catalog.assets.record({
      profile,
      flowMediaId: item.mediaId,
      kind: mediaKindOf(request),
      flowProjectId: generated.projectId,
      flowWorkflowId: item.workflowId ?? null,
      ...(item.displayName ? { displayName: item.displayName } : {}),
      model: modelOf(request, item),
      aspectRatio: aspectOf(request),
      width: item.width ?? null,
      height: item.height ?? null,
      durationSeconds: durationOf(request, item),
      seed: item.seed ?? null,
      status: 'ready',
    });
    catalog.assets.link(ctx.operationId, asset.id, 'output', i);
    return asset.id;
  });
}

/** Where result `index` (1-based) of `count` goes: the asked file, the flat directory, or the layout. */
function targetOf(request: GenerationRequest, outputDir: string, item: Item, index: number, count: number): SaveTarget {
  const { output } = request;
  if (output.file !== undefined) return { kind: 'file', file: output.file, index, count, overwrite: output.overwrite };
  if (output.dir !== undefined) return { kind: 'dir', dir: output.dir, stem: item.mediaId };
  const media = mediaKindOf(request);
  const stem = media === 'video' ? item.mediaId : `${item.mediaId}_${index}`;
  return { kind: 'layout', outputDir, media, stem };
}

/** An extension's length as its bytes say (its key does not): what extending it in turn sets its frames by. */
async function recordMeasuredLength(ctx: SaveContext, mediaId: string, bytes: Uint8Array): Promise<void> {
  const seconds = await clipSecondsOf(bytes);
  ctx.catalog.assets.record({ profile: ctx.profile, flowMediaId: mediaId, kind: 'video', durationSeconds: seconds });
}

async function saveItem(ctx: SaveContext, generated: FlowGenerationResult, index: number, assetId: number) {
  const item = generated.items[index] as Item;
  const fetched = await ctx.session.download(item.url, {
    kind: mediaKindOf(ctx.request),
    fallbackUrl: item.posterUrl ?? null,
    expectedBytes: item.byteSize ?? null,
    mediaId: item.mediaId,
    signal: ctx.signal,
  });
  if (ctx.request.kind === 'extend') await recordMeasuredLength(ctx, item.mediaId, fetched.bytes);
  const target = targetOf(ctx.request, ctx.outputDir, item, index + 1, generated.items.length);
  return saveMedia(
    ctx.catalog,
    { assetId, mediaId: item.mediaId, bytes: fetched.bytes, extension: fetched.extension },
    target,
    {
      outputDir: ctx.outputDir,
      recovery: `The media ${item.mediaId} was made in Flow project ${generated.projectId}; recover it with 'gflow data download ${item.mediaId}' (gflow_download_media), which spends nothing.`,
    },
  );
}

/** Downloads, verifies and saves every result in order; the files, what each is, and the naming notes. */
export async function saveResults(
  ctx: SaveContext,
  generated: FlowGenerationResult,
): Promise<{ files: string[]; media: GeneratedMedia[]; notes: string[] }> {
  const assetIds = recordAssets(ctx, generated);
  const out = { files: [] as string[], media: [] as GeneratedMedia[], notes: [] as string[] };
  for (const [i, item] of generated.items.entries()) {
    if (ctx.signal.aborted)
      throw new CancelledError('Cancelled while downloading; the media exists in the Flow project.');
    ctx.progress({ phase: 'downloading', progress: i, total: generated.items.length, message: item.mediaId });
    const saved = await saveItem(ctx, generated, i, assetIds[i] as number);
    out.files.push(saved.path);
    out.notes.push(...saved.notes);
    out.media.push({
      media_id: item.mediaId,
      workflow_id: item.workflowId ?? null,
      file: saved.path,
      bytes: saved.bytes,
      width: item.width ?? null,
      height: item.height ?? null,
      seed: item.seed ?? null,
    });
  }
  ctx.progress({ phase: 'recording' });
  return out;
}

/**
 * The completed envelope: the task, the project and media ids, the files and what made them. A
 * reply that named no media completes nothing: it is a wire-format error (credits may have been spent).
 */
export function completedEnvelope(
  request: GenerationRequest,
  generated: FlowGenerationResult,
  saved: { files: string[]; media: GeneratedMedia[]; notes: string[] },
  flags: { readonly sandbox: boolean; readonly referenceUploaded: boolean },
): CompletedGeneration {
  const first = generated.items[0];
  if (first === undefined)
    throw new WireFormatError(`Flow's reply in project ${generated.projectId} named no media for this generation.`);
  return {
    status: 'completed',
    task_id: request.task_id,
    task_type: request.plan.mode,
    flow_project_id: generated.projectId,
    flow_media_id: first.mediaId,
    flow_workflow_id: first.workflowId ?? null,
    files: saved.files,
    ...(saved.notes.length ? { notes: saved.notes } : {}),
    seed: request.kind === 'image' ? (first.seed ?? null) : null,
    media: saved.media,
    // params.model says which model made it (its table name), also when none was named.
    params: { ...request.params, model: modelOf(request, first) ?? request.params['model'] ?? null },
    ...(flags.sandbox ? { sandbox: true } : {}),
    ...(generated.recovered ? { recovered: true } : {}),
    ...(generated.projectTitle ? { flow_project_title: generated.projectTitle } : {}),
    // Every surface says which characters went with the submit (an `@Name` the prompt resolved too).
    ...(generated.characters?.length
      ? { characters: generated.characters.map((c) => ({ id: c.entityId, name: c.displayName })) }
      : {}),
    ...(flags.referenceUploaded ? { reference_uploaded: true } : {}),
    ...(generated.arm === 'agent-only'
      ? {
          ui_arm: 'agent-only' as const,
          ...(generated.agentQuotedCredits === undefined ? {} : { agent_quoted_credits: generated.agentQuotedCredits }),
        }
      : {}),
  };
}
