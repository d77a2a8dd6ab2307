import type { Catalog, TaskRecord } from '@gflow/catalog';
import type { SharedMediaItem, SharedRecord } from '@gflow/fleet';
import type { RuntimeServices } from '../runtime/runtimeServices.js';
import { isRunPayload } from '../runs/runPayload.js';
import type { FleetLink } from './fleetLink.js';

/** The loose shape of a completed generation's envelope this module reads (generation/schemas.ts). */
interface Completed {
  readonly flow_project_id?: string | null;
  readonly task_type?: string;
  readonly params?: Readonly<Record<string, unknown>>;
  readonly media?: ReadonlyArray<{ readonly media_id?: unknown; readonly file?: unknown; readonly bytes?: unknown }>;
}

/** The loose shape of a generation row's plan (generation/plan.ts): the catalogued media it started from. */
interface Planned {
  readonly plan?: {
    readonly kind?: string;
    readonly references?: ReadonlyArray<{ kind?: string; mediaId?: string }>;
    readonly startFrame?: { kind?: string; mediaId?: string };
    readonly endFrame?: { kind?: string; mediaId?: string };
  };
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The media a generation started from, by role, as the gallery's lineage names them. */
function sourcesOf(payload: unknown): SharedRecord['sources'] {
  const plan = (payload as Planned | null)?.plan;
  if (plan === undefined) return [];
  const refRole = plan.kind === 'image' ? 'input' : 'reference';
  const out: { mediaId: string; role: string }[] = [];
  for (const ref of plan.references ?? [])
    if (ref.kind === 'media' && ref.mediaId) out.push({ mediaId: ref.mediaId, role: refRole });
  if (plan.startFrame?.kind === 'media' && plan.startFrame.mediaId)
    out.push({ mediaId: plan.startFrame.mediaId, role: 'seed_start' });
  if (plan.endFrame?.kind === 'media' && plan.endFrame.mediaId)
    out.push({ mediaId: plan.endFrame.mediaId, role: 'seed_end' });
  return out;
}

/** The SHA-256 this worker's catalog recorded for a file it wrote (the shared row carries it for the front door's checks). */
function sha256Of(catalog: Catalog, profile: string, mediaId: string, file: string): string | null {
  const asset = catalog.assets.getByMediaId(profile, mediaId);
  if (asset === undefined) return null;
  return catalog.localFiles.listForAsset(asset.id).find((f) => f.path === file)?.sha256 ?? null;
}

/** What the fleet's shared catalog records of one completed generation row (files by their key in the store). */
export function sharedRecordOf(runtime: RuntimeServices, link: FleetLink, row: TaskRecord): SharedRecord | undefined {
  if (row.status !== 'completed' || row.result === null) return undefined;
  const result = row.result as Completed;
  const kind = ['t2i', 'i2i'].includes(result.task_type ?? row.taskType) ? 'image' : 'video';
  const params = result.params ?? {};
  const items: SharedMediaItem[] = (result.media ?? []).flatMap((m) => {
    const mediaId = text(m.media_id);
    if (mediaId === null) return [];
    const file = text(m.file);
    return [
      {
        mediaId,
        kind,
        prompt: text(params['prompt']),
        model: text(params['model']),
        aspect: text(params['aspect']),
        fileKey: file === null ? null : (link.store.keyOf(file) ?? null),
        bytes: typeof m.bytes === 'number' ? m.bytes : null,
        sha256: file === null ? null : sha256Of(runtime.catalog, row.profile, mediaId, file),
      },
    ];
  });
  if (items.length === 0) return undefined;
  return {
    profile: row.profile,
    taskId: row.taskId,
    workerId: link.workerId,
    projectId: text(result.flow_project_id),
    projectTitle: null,
    items,
    sources: sourcesOf(row.payload),
  };
}

/**
 * Publishes what a settled task made to the fleet's shared catalog: a single generation's media, or
 * every completed step of a run (idempotent, so a resumed run publishes its earlier steps again
 * harmlessly). A failure is logged, never the task's: the row and the files are already the truth.
 */
export async function publishSettled(runtime: RuntimeServices, link: FleetLink, row: TaskRecord): Promise<number> {
  const rows = row.parentTaskId === null && isRunPayload(row.payload) ? await runtime.queue.steps(row.taskId) : [row];
  let published = 0;
  for (const one of rows) {
    const record = sharedRecordOf(runtime, link, one);
    if (record === undefined) continue;
    try {
      await link.shared.publish(record);
      published += record.items.length;
    } catch (error) {
      runtime.logger.warn('the fleet could not publish a result', { task_id: one.taskId, error: String(error) });
    }
  }
  return published;
}
