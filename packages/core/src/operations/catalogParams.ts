// What the catalog's operations share: the profile filter (every profile, or one the home or the
// catalog knows), the paging parameters and page shape, the row mappers, the age cutoff, and the
// surfaces of the local reads. The operations themselves live by family beside it.
import { NoProfileError, UsageError } from '@gflow/errors';
import type { Catalog, MediaListItem } from '@gflow/catalog';
import { z } from 'zod';
import { listProfileNames, validateProfileName } from '../home/profiles.js';
import type { RuntimeServices } from '../runtime/runtimeServices.js';
import type * as S from './catalogSchemas.js';

/** `profile`: one profile; absent (or "default") for every profile. */
export const anyProfile = z.string().trim().min(1).optional().describe('Only this profile (default: every profile).');
/** A page of a local listing: 1..1000 rows (default 20), from `offset`. */
export const page = {
  limit: z.number().int().min(1).max(1000).default(20).describe('Rows per page, 1–1000.'),
  offset: z.number().int().min(0).default(0).describe('Rows to skip.'),
};

/** The catalog's profile option for `profile` ("default" = every profile). */
export function profileFilter(profile: string | undefined): { profile?: string } {
  return profile === undefined || profile === 'default' ? {} : { profile: validateProfileName(profile) };
}

/**
 * `profile` of a catalog read (a listing, a show, a prune): every profile, or one the home (a
 * profile directory) or the catalog (rows of it) knows. A name neither knows is refused
 * (NoProfileError, exit 2) with the known ones, rather than read as an empty listing.
 */
export function knownProfileFilter(
  runtime: Pick<RuntimeServices, 'catalog' | 'layout'>,
  profile: string | undefined,
): { profile?: string } {
  const filter = profileFilter(profile);
  const name = filter.profile;
  if (name === undefined) return filter;
  const onDisk = listProfileNames(runtime.layout);
  if (onDisk.includes(name) || runtime.catalog.profiles.get(name)) return filter;
  const known = [...new Set([...onDisk, ...runtime.catalog.profiles.list().map((p) => p.name)])].sort();
  throw new NoProfileError(`Profile "${name}" is not known: no profile directory and no catalog rows have it.`, {
    extensions: { parameter: 'profile', available_profiles: known },
    remediationHint: known.length
      ? `Use one of: ${known.join(', ')}; or name no profile to read every profile.`
      : 'No profile is known yet; name no profile to read every profile.',
  });
}

/** One catalogued image or video, as the listings print it. */
export function mediaRow(m: MediaListItem): z.output<typeof S.mediaRow> {
  return {
    media_id: m.mediaId,
    kind: m.kind,
    profile: m.profile,
    project_id: m.projectId,
    workflow_id: m.workflowId,
    status: m.status,
    model: m.model,
    aspect_ratio: m.aspectRatio,
    width: m.width,
    height: m.height,
    duration_seconds: m.durationSeconds,
    seed: m.seed,
    display_name: m.displayName,
    prompt: m.prompt,
    created_at: m.createdAt,
    file_count: m.fileCount,
    path: m.path,
    bytes: m.bytes,
  };
}

type ErrorItem = ReturnType<Catalog['errors']['list']>['items'][number];

/** One failed operation, as `data list errors` and `data errors export` print it. */
export function errorRow(e: ErrorItem): z.output<typeof S.errorRow> {
  return {
    operation_id: e.operationId,
    profile: e.profile,
    command: e.command,
    mode: e.mode,
    project_id: e.projectId,
    model: e.model,
    error_type: e.errorType,
    error_detail: e.errorDetail,
    started_at: e.startedAt,
    completed_at: e.completedAt,
  };
}

const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000 } as const;

/** `90d`, `24h`, `30m` → the ISO instant that long before `now`; anything else is a usage error (exit 2). */
export function olderThanCutoff(raw: string, now: Date = new Date()): string {
  const match = /^\s*(\d{1,6})\s*([dhm])\s*$/i.exec(raw);
  if (!match) {
    throw new UsageError(
      `--older-than takes a number and a unit d, h or m (e.g. 90d, 24h, 30m); got ${JSON.stringify(raw)}.`,
      { extensions: { parameter: 'older_than' } },
    );
  }
  const unit = (match[2] as string).toLowerCase() as keyof typeof UNIT_MS;
  return new Date(now.getTime() - Number(match[1]) * UNIT_MS[unit]).toISOString();
}

export function pageOf<T, R>(
  p: { items: readonly T[]; count: number; offset: number; hasMore: boolean; nextOffset: number | null },
  map: (item: T) => R,
) {
  return {
    status: 'ok' as const,
    items: p.items.map(map),
    count: p.count,
    offset: p.offset,
    has_more: p.hasMore,
    next_offset: p.nextOffset,
  };
}

export const local = { kind: 'read', usesBrowser: false, surfaces: ['cli', 'library'] } as const;

// ---- The reads behind the MCP catalog resources (gflow://media/…, gflow://projects/…). They are
// not tools (their surface is the library, which the MCP adapter is a user of): the resources'
// listings, completions and reads call them through `gflow.run`.

export const resourceRead = { kind: 'read', usesBrowser: false, surfaces: ['library'] } as const;
