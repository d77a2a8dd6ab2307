import type { Catalog, MediaListItem } from '@gflow/catalog';

export interface RecentMediaOptions {
  /** At most this many rows of each kind are read. */
  readonly perKind: number;
  readonly profile?: string;
}

export interface RecentMedia {
  /** Newest first, one row per media id (the same id in two profiles is listed once, the newer row). */
  readonly items: readonly MediaListItem[];
  /** Every image and video row was read (neither kind had more than `perKind`). */
  readonly complete: boolean;
}

/** The newest catalogued images and videos, merged newest first. */
export function recentMedia(catalog: Pick<Catalog, 'assets'>, options: RecentMediaOptions): RecentMedia {
  const page = (kind: 'image' | 'video') =>
    catalog.assets.list({
      kind,
      limit: options.perKind,
      ...(options.profile === undefined ? {} : { profile: options.profile }),
    });
  const images = page('image');
  const videos = page('video');
  const seen = new Set<string>();
  const items = [...images.items, ...videos.items]
    .sort(newestFirst)
    .filter((row) => !seen.has(row.mediaId) && seen.add(row.mediaId));
  return { items, complete: !images.hasMore && !videos.hasMore };
}

export function newestFirst(
  a: { readonly createdAt: string; readonly assetId: number },
  b: { readonly createdAt: string; readonly assetId: number },
): number {
  return a.createdAt === b.createdAt ? b.assetId - a.assetId : a.createdAt < b.createdAt ? 1 : -1;
}
