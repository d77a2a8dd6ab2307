import { IMAGE_ASPECT_ICONS, type ImageMenuEntry, type ImageModel, VIDEO_ASPECT_ICONS } from '@gflow/flow-facts';
import { type CostLineReading, readCostLine } from '../composer/costLine.js';
import { pickModel } from '../composer/modelMenu.js';
import { closeSettings, numberToken, setChoice, setDurationSlider } from '../composer/settingsPane.js';
import type { OpContext } from '../session/opContext.js';
import type { VideoSettings } from './requestCheck.js';
import type { GenerateImageRequest, GenerateVideoRequest } from './types.js';

/**
 * Configuring the classic composer's settings pane, the way a person does: each group set by its
 * ligatures and number tokens (never translated labels), then the cost line read once every
 * setting is in place (flow-wire §4) and the pane closed. The image and video forms share the
 * count and the ending.
 */

/** The count radios (x1 … x4); x1 may be absent on a pane that only offers one. */
async function setCount(ctx: OpContext, count: number): Promise<void> {
  await setChoice(ctx, {
    kind: 'count',
    wanted: `x${count}`,
    match: (r) => r.text.toLowerCase() === `x${count}`,
    ifAbsent: count === 1 ? 'skip' : 'refuse',
  });
}

/** The cost line under the count row, read with everything set; then the pane closes. */
async function finish(ctx: OpContext): Promise<CostLineReading> {
  const costLine = await readCostLine(ctx);
  await closeSettings(ctx);
  return costLine;
}

/** Image mode, aspect, model, count: the menu entry picked (its token is what the submit body must carry) and the quote. */
export async function configureImage(
  ctx: OpContext,
  req: GenerateImageRequest,
  model: ImageModel,
): Promise<{ readonly picked: ImageMenuEntry; readonly costLine: CostLineReading }> {
  await setChoice(ctx, { kind: 'mode', wanted: 'Image', match: (r) => r.icons.includes('image'), ifAbsent: 'refuse' });
  await setChoice(ctx, {
    kind: 'aspect',
    wanted: req.aspect,
    match: (r) => r.icons.includes(IMAGE_ASPECT_ICONS[req.aspect]),
    ifAbsent: 'refuse',
  });
  const picked = await pickModel(ctx, { candidates: model.menu, kind: 'image' });
  await setCount(ctx, req.count);
  return { picked, costLine: await finish(ctx) };
}

/** Video mode, Frames or Ingredients, aspect. */
async function setVideoForm(ctx: OpContext, req: GenerateVideoRequest): Promise<void> {
  await setChoice(ctx, {
    kind: 'mode',
    wanted: 'Video',
    match: (r) => r.icons.includes('videocam'),
    ifAbsent: 'refuse',
  });
  const submode = req.mode === 'r2v' ? 'chrome_extension' : 'crop_free';
  await setChoice(ctx, {
    kind: 'submode',
    wanted: req.mode === 'r2v' ? 'Ingredients' : 'Frames',
    match: (r) => r.icons.includes(submode),
    ifAbsent: 'refuse',
  });
  await setChoice(ctx, {
    kind: 'aspect',
    wanted: req.aspect,
    match: (r) => r.icons.includes(VIDEO_ASPECT_ICONS[req.aspect]),
    ifAbsent: 'refuse',
  });
}

/** The duration: Omni 1.2 Flash sets it with a slider, the other models with radios. */
async function setDuration(ctx: OpContext, seconds: number): Promise<void> {
  if (await setDurationSlider(ctx, seconds)) return;
  await setChoice(ctx, {
    kind: 'duration',
    wanted: `${seconds} s`,
    match: (r) => numberToken(r.text) === seconds,
    ifAbsent: 'refuse',
  });
}

/** Video form, model (unless the editor's stays), resolution, duration, count; the quote. */
export async function configureVideo(
  ctx: OpContext,
  req: GenerateVideoRequest,
  settings: VideoSettings,
): Promise<CostLineReading> {
  await setVideoForm(ctx, req);
  if (settings.model !== undefined) await pickModel(ctx, { candidates: settings.model.menu, kind: 'video' });
  const resolution = req.resolution;
  if (resolution !== undefined)
    await setChoice(ctx, {
      kind: 'resolution',
      wanted: resolution,
      match: (r) => r.text.toLowerCase() === resolution,
      ifAbsent: 'refuse',
    });
  if (settings.duration !== undefined) await setDuration(ctx, settings.duration);
  await setCount(ctx, req.count);
  return finish(ctx);
}
