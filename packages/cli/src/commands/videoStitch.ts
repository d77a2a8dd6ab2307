import { operationLeaf } from '../framework/operationLeaf.js';
import { opSchema } from '../framework/opSchema.js';

interface Stitched {
  readonly path: string;
  readonly seconds: number;
  readonly frames: number;
  readonly width: number;
  readonly height: number;
  readonly clips: ReadonlyArray<{ readonly input: string; readonly seconds: number; readonly trimmed_seconds: number }>;
}

function renderStitch(result: unknown): string {
  const r = result as Stitched;
  const lines = r.clips.map(
    (c, i) =>
      `  ${i + 1}. ${c.input}: ${c.seconds} s${c.trimmed_seconds > 0 ? ` (${c.trimmed_seconds} s trimmed at its end)` : ''}`,
  );
  return [
    `Wrote ${r.path}: ${r.seconds} s, ${r.frames} frames, ${r.width}×${r.height}, from ${r.clips.length} clips`,
    ...lines,
  ].join('\n');
}

/** `gflow video stitch A B C… -o out.mp4`: one core operation (stitchVideos), spends nothing. */
export const videoStitchCommand = operationLeaf({
  name: 'stitch',
  description:
    'Join clips into one MP4 on this machine (no re-encoding, no Flow, spends nothing). Clips are MP4 files or media ids of downloaded videos; they must share size, codec and encoder settings.',
  operation: 'stitchVideos',
  schema: opSchema('stitchVideos'),
  positionals: ['inputs'],
  variadicLast: true,
  overrides: {
    output: { aliases: ['o'], valueHint: 'FILE.mp4', required: true },
    overlap: { valueHint: 'SECONDS' },
    overlaps: { name: 'overlap-at', valueHint: 'SECONDS' },
    overwrite: { name: 'force', description: 'Replace a file already at the -o path (default: refuse).' },
    profile: { valueHint: 'NAME' },
  },
  render: (result) => ({ data: result, text: renderStitch(result) }),
  examples: [
    'gflow video stitch a.mp4 b.mp4 -o ab.mp4',
    'gflow video stitch 7d1e-media-id 9a0b-media-id -o long.mp4 --overlap 1',
  ],
});
