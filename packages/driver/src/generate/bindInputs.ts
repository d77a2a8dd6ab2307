import { ConfigurationError } from '@gflow/errors';
import type { VideoModel } from '@gflow/flow-facts';
import { bindFrameRef } from '../composer/frames.js';
import { FreshPageNeeded } from '../composer/thumbnailIds.js';
import { boundChipThumbs, framesStillLeft, unbindLeftFrames } from '../composer/warmPage.js';
import { attachMentions } from '../composer/mentions.js';
import type { OpenTimeouts } from '../composer/openProject.js';
import { charactersLeft, typePromptWithMentions } from '../composer/promptMentions.js';
import { typePrompt } from '../composer/promptText.js';
import type { UploadedFile } from '../composer/uploads.js';
import type { OpContext } from '../session/opContext.js';
import { type ResolvedReference, resolveReferences } from './prepare.js';
import type { CharacterInput, GenerateVideoRequest } from './types.js';

/**
 * Binding a run's inputs to the composer, the way a person does: uploads first (run-unique
 * names), frames into their chips, then the prompt — `@Name` attached where it stands where the
 * form takes characters — and the references and the characters it did not name as `@` mentions
 * at its end. Shared by the image and video forms.
 */

/** A video run's inputs, uploaded or passed through for an in-place attach. */
export interface VideoInputs {
  readonly start: ResolvedReference | undefined;
  readonly end: ResolvedReference | undefined;
  readonly refs: readonly ResolvedReference[];
}

export async function resolveVideoInputs(
  ctx: OpContext,
  req: GenerateVideoRequest,
  uploads: UploadedFile[],
  timeouts: OpenTimeouts,
): Promise<VideoInputs> {
  const [start] = req.startFrame === undefined ? [] : await resolveReferences(ctx, [req.startFrame], uploads, timeouts);
  const [end] = req.endFrame === undefined ? [] : await resolveReferences(ctx, [req.endFrame], uploads, timeouts);
  const refs = await resolveReferences(ctx, req.references ?? [], uploads, timeouts);
  return { start, end, refs };
}

/**
 * The prompt and its mentions; every character attached (passed, or named by `@` in the prompt),
 * once per entity id. Without `mentions` (a form that takes no characters) `@` is a plain word.
 */
export async function bindPrompt(
  ctx: OpContext,
  run: {
    readonly prompt: string;
    readonly refs: readonly ResolvedReference[];
    readonly characters: readonly CharacterInput[];
    readonly mentions: boolean;
  },
): Promise<CharacterInput[]> {
  const mentioned = run.mentions ? await typePromptWithMentions(ctx, run.prompt, run.characters) : [];
  if (!run.mentions) await typePrompt(ctx, run.prompt);
  await attachMentions(ctx, run.refs, charactersLeft(run.characters, mentioned));
  const attached = new Map<string, CharacterInput>();
  for (const c of [...run.characters, ...mentioned]) if (!attached.has(c.entityId)) attached.set(c.entityId, c);
  return [...attached.values()];
}

/**
 * A kept page's composer may show the frames an earlier run bound, once it is in Frames mode again:
 * they are kept when they are still the very chips the last run's guarded submit sent and hold this
 * run's frames (framesStillLeft: true), else unbound (false). Chips that do not unbind ask for a
 * fresh load (FreshPageNeeded).
 */
async function keepOrUnbindLeftFrames(ctx: OpContext, inputs: VideoInputs): Promise<boolean> {
  const wanted = [inputs.start, inputs.end].flatMap((f) => (f === undefined ? [] : [f.mediaId]));
  const thumbs = await boundChipThumbs(ctx).catch((): string[] => []);
  if (framesStillLeft(ctx.framesLeft, wanted, thumbs)) {
    ctx.logger.debug('keeping the frames the last run left bound', { mediaIds: wanted });
    return true;
  }
  if (!(await unbindLeftFrames(ctx)))
    throw new FreshPageNeeded('the Frames chips', 'still shows a frame an earlier run bound');
  return false;
}

/**
 * A video run's frames, prompt and mentions. Characters go with r2v only: there an `@Name` in the
 * prompt is attached where it stands; in the other modes it is text, like any word. The reference
 * cap counts the characters the prompt named too.
 */
export async function bindVideo(
  ctx: OpContext,
  req: GenerateVideoRequest,
  inputs: VideoInputs,
  model: VideoModel | undefined,
): Promise<CharacterInput[]> {
  const kept = inputs.start !== undefined && ctx.pageKept && (await keepOrUnbindLeftFrames(ctx, inputs));
  if (inputs.start !== undefined && !kept) await bindFrameRef(ctx, 'Start', inputs.start, 1);
  if (inputs.end !== undefined && !kept) await bindFrameRef(ctx, 'End', inputs.end, 2);
  const characters = req.characters ?? [];
  const attached = await bindPrompt(ctx, {
    prompt: req.prompt,
    refs: inputs.refs,
    characters,
    mentions: req.mode === 'r2v',
  });
  if (model !== undefined && inputs.refs.length + attached.length > model.refCap)
    throw new ConfigurationError(
      `${model.label} takes at most ${model.refCap} references; with the characters named by @ in the prompt there are ${inputs.refs.length + attached.length}. Nothing was submitted.`,
    );
  return attached;
}
