/** The generation parameters a catalogued asset records, as the surfaces name them. */
export function assetParameters(asset: {
  readonly model: string | null;
  readonly aspectRatio: string | null;
  readonly width: number | null;
  readonly height: number | null;
  readonly durationSeconds: number | null;
  readonly seed: number | null;
}): {
  model: string | null;
  aspect_ratio: string | null;
  width: number | null;
  height: number | null;
  duration_seconds: number | null;
  seed: number | null;
} {
  return {
    model: asset.model,
    aspect_ratio: asset.aspectRatio,
    width: asset.width,
    height: asset.height,
    duration_seconds: asset.durationSeconds,
    seed: asset.seed,
  };
}
