import { SCENE_VARIANT_VALUES } from './sceneVariants.js';

/**
 * Variant switches for what the original project's captures leave uncertain (reference
 * flow-captures.md: "peer model" or [U]). The first value of each list is the default and follows
 * the strongest evidence; the others are the plausible alternatives the driver must also pass on
 * (the driver's variant matrix runs the journeys a switch shapes once per value). Simulator-wide, switchable at run time
 * (`scenario.setVariants`), read by the page at load and by the rpc handlers per call.
 */
export const VARIANT_VALUES = {
  /** §1 `@` media chips: no `data-entity-id` (peer model + memory note), or the media id in it. */
  mediaChipEntityId: ['absent', 'media-id'],
  /** §5 the fourth slot of a video record: `null` since 2026-10-06 (measured), `"CAE"` before, `"CAF"` allowed for. */
  recordMarker: ['null', 'CAE', 'CAF'],
  /** §4 where a finished clip's signed URLs arrive: only on `as29s` (measured), or also on the `jwpduf` poll. */
  videoUrls: ['as29s', 'poll'],
  /** §2 a video tile's `<video>` src: `/asb/…` redirecting to `*.googlevideo.com` (measured), or the CDN mp4 URL. */
  videoTileSrc: ['asb-redirect', 'cdn'],
  /** §7 the image model menu: Nano Banana 2.1 (measured from 2026-10-08), or the earlier Nano Banana 2. */
  imageMenu: ['nb2.1', 'nb2'],
  /** §9 [U] the `ogiZ0b` reply: `[[MEDIA…],[WORKFLOW…]]`, or wrapped `[null, [[MEDIA…]], [[WORKFLOW…]], 1]`. */
  imageReply: ['flat', 'wrapped'],
  /** [U] Omni 1.2 Flash's key prefix (never captured; seed 000 names the model): `omni_1_2_flash_…` or `abra_1_2_…`. */
  omni12Key: ['omni_1_2_flash', 'abra_1_2'],
  /** §9 [U] `jHPbke` / `o8DA4` replies: `[projectId,[title]]` / `[title]`, or wrapped `[null,[projectId,title]]` / `[[title, projectId]]`. */
  projectReply: ['flat', 'wrapped'],
  /** §4 [U] `UpteDb` replies: one unranked list in a fixed order, or in another order on every reply (nothing says it is stable). */
  searchOrder: ['fixed', 'shuffled'],
  /**
   * §9 [U] `UpteDb` hits (the row layout was never captured): each row carries its `/asb/` thumbnail
   * beside its id, or the rows carry none and the thumbnails come as a list beside them, in order.
   */
  searchThumbs: ['in-row', 'parallel'],
  /**
   * [U] the Frames library picker as it opens (only typing is captured to search, flow-wire §4): it
   * lists the library (its own search of nothing, `UpteDb`), or nothing until a query is typed.
   */
  libraryPickerOpens: ['listed', 'empty'],
  /** [U] the brief panel (never captured): every change saves at once, or changes wait for its Save button. */
  briefSave: ['auto', 'explicit'],
  /** [U] removing an instruction card asks to confirm in a dialog, or removes at once. */
  briefRemoveConfirm: ['dialog', 'none'],
  /** §2 [U] an agent-only finished tile's picture: a signed CDN URL naming the uuid (flow-wire §4), or an opaque `/asb/…` (§2). */
  agentTileSrc: ['cdn', 'asb'],
  /** [U] an agent-only image turn under "Confirm before generating: Always": no confirmation (only the video credit gate was described), or one. */
  agentImageGate: ['none', 'confirm'],
  /** [U] the classic composer once a submit is on its way: it keeps the prompt, its chips and bound frames, or it clears them. */
  composerAfterSubmit: ['keep', 'clear'],
  /** The scene editor and its extend (flow-captures.md §10; sceneVariants.ts). */
  ...SCENE_VARIANT_VALUES,
  /**
   * [U] a project loaded while one of its images is still generating (never captured): a
   * `flow-pending-tile` with no media id, the same tile carrying `data-media-id`, or nothing until
   * the image is done. Either way the grid is a per-load snapshot: a later load shows the image.
   */
  pendingImage: ['tile', 'tile-media-id', 'unlisted'],
  /**
   * [U] whether a grid tile shows the name Flow's library lists its media by (never captured): as
   * its picture's alt text, or not at all (then only the `@` picker names it, beside the same
   * `/asb/` thumbnail as the tile's).
   */
  tileName: ['alt', 'none'],
} as const;

export type VariantName = keyof typeof VARIANT_VALUES;
export type Variants = { -readonly [K in VariantName]: (typeof VARIANT_VALUES)[K][number] };
export const VARIANT_NAMES = Object.keys(VARIANT_VALUES) as VariantName[];

export function defaultVariants(): Variants {
  return Object.fromEntries(VARIANT_NAMES.map((name) => [name, VARIANT_VALUES[name][0]])) as Variants;
}

/** Checks names and values (a typo must not silently test the default). */
export function checkVariants(patch: Partial<Record<string, unknown>>): Partial<Variants> {
  for (const [name, value] of Object.entries(patch)) {
    const allowed = (VARIANT_VALUES as Record<string, readonly string[]>)[name];
    if (allowed === undefined) throw new TypeError(`unknown variant: ${name} (known: ${VARIANT_NAMES.join(', ')})`);
    if (!allowed.includes(value as string))
      throw new TypeError(`variant ${name} takes ${allowed.join(' | ')}, not ${String(value)}`);
  }
  return patch as Partial<Variants>;
}
