// The library example of docs/LIBRARY.md: an image, then a video that starts
// from it, with progress and a way to cancel. CI runs it against the simulator
// (test/examples.browser.test.ts); against Google it needs a signed-in profile
// (`gflow auth login`).
import { type Gflow, type GenerationResult, createGflow } from '../src/index.js';

export async function imageThenVideo(
  gflow: Gflow,
  signal?: AbortSignal,
): Promise<{ image: GenerationResult; video: GenerationResult }> {
  const onProgress = (event: { phase: string; elapsedMs?: number }) => {
    process.stderr.write(`  ${event.phase} ${event.elapsedMs ?? 0} ms\n`);
  };
  // gflow.run types each call by the operation's name: its input (a wrong aspect does not compile) and its result.
  const image = await gflow.run(
    'generateImage',
    { prompt: 'a lighthouse at dusk, long exposure', aspect: '16:9' },
    { onProgress, ...(signal ? { signal } : {}) },
  );
  if (image.status !== 'completed' || !image.flow_media_id) throw new Error(`image: ${JSON.stringify(image.error)}`);
  const video = await gflow.run(
    'generateVideo',
    { prompt: 'waves roll in, the beam turns', mode: 'i2v', initial_frame: image.flow_media_id, aspect: '16:9' },
    { onProgress, ...(signal ? { signal } : {}) },
  );
  if (video.status !== 'completed') throw new Error(`video: ${JSON.stringify(video.error)}`);
  return { image, video };
}

// Run directly: `npx tsx packages/core/examples/imageThenVideo.ts` (uses your real profile).
if (process.argv[1]?.endsWith('imageThenVideo.ts')) {
  const gflow = createGflow({ surface: 'library' });
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  try {
    const { image, video } = await imageThenVideo(gflow, controller.signal);
    process.stdout.write(`${[...(image.files ?? []), ...(video.files ?? [])].join('\n')}\n`);
  } finally {
    await gflow.close();
  }
}
