/**
 * Image models on flow.google.com (flow-wire §3a "Model keys", §4 "Model picker"):
 * our name ↔ the product name in the [role=menu] ↔ the token the page puts in `ogiZ0b`.
 */
export interface ImageModelInfo {
  readonly name: ImageModelName;
  /** The product name the menu entry contains (never a translated label). */
  readonly label: string;
  /** Entries containing one of these words are not this model. */
  readonly exclude: readonly string[];
  /** The model token in the submit body. */
  readonly token: string;
}

export type ImageModelName = 'nano2' | 'narwhal' | 'nano2-lite' | 'nano-pro';

export const IMAGE_MODELS: readonly ImageModelInfo[] = [
  { name: 'nano2', label: 'Nano Banana 2.1', exclude: ['Lite'], token: 'BELUGA' },
  { name: 'narwhal', label: 'Nano Banana 2', exclude: ['Lite'], token: 'NARWHAL' },
  { name: 'nano2-lite', label: 'Nano Banana 2 Lite', exclude: [], token: 'HARBOR_SEAL' },
  { name: 'nano-pro', label: 'Nano Banana Pro', exclude: [], token: 'GEM_PIX_2' },
];

export function imageModel(name: string): ImageModelInfo | undefined {
  return IMAGE_MODELS.find((m) => m.name === name);
}

/** Image aspects and their settings-pane ligatures (flow-wire §4). */
export const IMAGE_ASPECT_ICONS = {
  '16:9': 'crop_16_9',
  '4:3': 'crop_landscape',
  '1:1': 'crop_square',
  '3:4': 'crop_portrait',
  '9:16': 'crop_9_16',
} as const;

export type ImageAspect = keyof typeof IMAGE_ASPECT_ICONS;
