/**
 * Aspects, resolutions and modes Flow offers, and how the settings pane shows them (flow-wire §4:
 * aspect radios are told apart by their Material ligature, never by a translated label).
 */
export const IMAGE_ASPECTS = ['9:16', '16:9', '1:1', '4:3', '3:4'] as const;
/** The aspect ratios Flow makes videos in (the `aspect` input of `generateVideo`). */
export const VIDEO_ASPECTS = ['9:16', '16:9'] as const;
export type ImageAspect = (typeof IMAGE_ASPECTS)[number];
export type VideoAspect = (typeof VIDEO_ASPECTS)[number];

export const VIDEO_RESOLUTIONS = ['360p', '720p'] as const;
export type VideoResolution = (typeof VIDEO_RESOLUTIONS)[number];

export type VideoMode = 't2v' | 'i2v' | 'r2v';

/** Image aspects and their settings-pane ligatures. */
export const IMAGE_ASPECT_ICONS: Readonly<Record<ImageAspect, string>> = {
  '16:9': 'crop_16_9',
  '4:3': 'crop_landscape',
  '1:1': 'crop_square',
  '3:4': 'crop_portrait',
  '9:16': 'crop_9_16',
};

/** Video aspects and their settings-pane ligatures. */
export const VIDEO_ASPECT_ICONS: Readonly<Record<VideoAspect, string>> = { '16:9': 'crop_16_9', '9:16': 'crop_9_16' };

/** Aspect index in video bodies and records: 2 = 16:9, 1 = 9:16. */
export const VIDEO_ASPECT_INDEX: Readonly<Record<VideoAspect, number>> = { '16:9': 2, '9:16': 1 };
