import { FlowHostMigratedError } from '@gflow/errors';
import { dismissOverlays } from '../composer/overlays.js';
import { type OpenTimeouts, openProject, waitForEditor } from '../composer/openProject.js';
import { waitForSubmitReady } from '../composer/submitButton.js';
import { leaveAgentMode, settleArm, unknownAgentComposer } from '../composer/uiArm.js';
import { AG } from '../agent/agentSettings.js';
import { agentOnlyRefused } from '../agent/generateAgent.js';
import { type UploadedFile, uploadFile } from '../composer/uploads.js';
import type { AttachableReference } from '../composer/mentions.js';
import type { OpContext } from '../session/opContext.js';
import { FreshPageNeeded } from '../composer/thumbnailIds.js';
import type { ReferenceInput } from './types.js';
import { safeClick } from '../composer/safeClick.js';
import type { Locator } from 'playwright-core';

/** Finds the enabled button whose click spends (or refuses, before anything is sent). */
export type SubmitReady = (ctx: OpContext) => Promise<Locator>;

/** Free page reloads before a form the agent-only composer cannot take is refused (seed 000, #1142). */
export const AGENT_ONLY_RELOADS = 3;

export interface PreparedComposer {
  readonly projectId: string;
  readonly arm: 'classic' | 'agent-only';
}

/**
 * Opens the project (a fit warm page is kept, assets attached in place included: see
 * bindOnFreshPageWhenUnsure), clears overlays and puts a composer in front: the classic one
 * (switching agent mode off), or — on an account whose composer is agent-only — that one, when the
 * run is a form its agent can take (`agentRefusal` null). A form it cannot take is refused (36)
 * before anything is clicked, after up to three free reloads in case Flow serves the classic
 * composer on the next load.
 */
export async function prepareComposer(
  ctx: OpContext,
  projectId: string | undefined,
  timeouts: OpenTimeouts,
  agentRefusal: string | null,
  run: {
    /** With no project id: the title the project created for the run gets. */
    readonly newProjectTitle?: string | undefined;
    /** The run binds frames, and keeps or unbinds those a kept page shows itself (bindVideo). */
    readonly bindsFrames?: boolean;
  } = {},
): Promise<PreparedComposer> {
  ctx.report({ phase: 'opening' });
  const id = await openProject(ctx, projectId, timeouts, {
    ...(run.newProjectTitle === undefined ? {} : { newProjectTitle: run.newProjectTitle }),
    framesStay: run.bindsFrames === true,
  });
  return { projectId: id, arm: await settleComposer(ctx, timeouts, agentRefusal) };
}

/** Overlays cleared and the composer the run takes in front, reloading an agent-only one (prepareComposer). */
async function settleComposer(
  ctx: OpContext,
  timeouts: OpenTimeouts,
  agentRefusal: string | null,
): Promise<PreparedComposer['arm']> {
  for (let reloads = 0; ; reloads += 1) {
    await dismissOverlays(ctx);
    const arm = await settleArm(ctx);
    if (arm === 'agent-mode') await leaveAgentMode(ctx);
    if (arm !== 'agent-only') {
      await dismissOverlays(ctx);
      return 'classic';
    }
    if ((await ctx.page.locator(AG.box).count()) === 0) throw unknownAgentComposer();
    if (agentRefusal === null) return 'agent-only';
    if (reloads >= AGENT_ONLY_RELOADS) throw agentOnlyRefused(agentRefusal);
    ctx.logger.info('the composer is agent-only; reloading in case Flow serves the classic one', {
      reload: reloads + 1,
    });
    await reloadEditor(ctx, timeouts);
  }
}

/**
 * Configures the classic composer and binds a run's inputs (`bind`), on the page prepareComposer
 * kept when it was fit. An asset attached in place is told apart from others of its name by its
 * thumbnail token (thumbnailIds.ts): a kept page knows it from the tiles it loaded with and from its
 * own searches, but not for a tile it drew from a reply since, where a fresh load would show it.
 * When the kept page cannot tell (FreshPageNeeded, before anything was submitted), the editor is
 * loaded afresh, its composer settled again, and `bind` runs once more, as on a cold start.
 */
export async function bindOnFreshPageWhenUnsure<T>(
  ctx: OpContext,
  timeouts: OpenTimeouts,
  bind: () => Promise<T>,
): Promise<T> {
  try {
    return await bind();
  } catch (error) {
    if (!(error instanceof FreshPageNeeded)) throw error;
    ctx.logger.info('loading the project page afresh', { because: error.message });
    await reloadEditor(ctx, timeouts);
    const arm = await settleComposer(ctx, timeouts, 'the run had begun on the classic composer');
    if (arm !== 'classic') throw unknownAgentComposer();
    return bind();
  }
}

async function reloadEditor(ctx: OpContext, timeouts: OpenTimeouts): Promise<void> {
  ctx.landingChecks = false;
  ctx.pageKept = false;
  try {
    await ctx.page.reload({ waitUntil: 'domcontentloaded', timeout: timeouts.navigationMs });
  } catch (error) {
    throw ctx.mapError(error, 'reloading the Flow editor');
  }
  await waitForEditor(ctx, timeouts);
}

/** Refuses, before anything is opened, reference forms the flow.google.com driver cannot attach (36). */
export function refuseUnportedReferences(refs: readonly ReferenceInput[]): void {
  for (const ref of refs) {
    if (!('path' in ref) && (ref.displayName === undefined || ref.displayName === '')) {
      throw new FlowHostMigratedError(
        `A Flow media id (${ref.mediaId}) without its display name cannot be attached on flow.google.com: the picker lists assets by name only. Nothing was submitted.`,
        { remediationHint: 'Pass the local file, or the asset together with its recorded display name.' },
      );
    }
  }
}

/** A reference ready to attach: its display name in Flow's library, its media id, and maybe an upload to fall back on. */
export type ResolvedReference = AttachableReference;

/**
 * Uploads local files (run-unique names) and passes existing assets through to be attached in
 * place; an existing asset with a verified local file keeps an upload of it as its fallback (used
 * only when the picker does not list the asset). An existing asset without its display name cannot
 * be found in the picker by name: that form is not ported (36).
 */
export async function resolveReferences(
  ctx: OpContext,
  refs: readonly ReferenceInput[],
  uploads: UploadedFile[],
  timeouts: OpenTimeouts,
): Promise<ResolvedReference[]> {
  const out: ResolvedReference[] = [];
  const upload = async (file: string): Promise<UploadedFile> => {
    ctx.report({ phase: 'uploading' });
    const uploaded = await uploadFile(ctx, file, { timeoutMs: timeouts.uploadMs });
    uploads.push(uploaded);
    return uploaded;
  };
  for (const ref of refs) {
    if ('path' in ref) {
      const uploaded = await upload(ref.path);
      out.push({ mediaId: uploaded.mediaId, displayName: uploaded.displayName });
    } else if (ref.displayName !== undefined && ref.displayName !== '') {
      const fallbackPath = ref.fallbackPath;
      out.push({
        mediaId: ref.mediaId,
        displayName: ref.displayName,
        inPlace: true,
        ...(fallbackPath === undefined ? {} : { fallback: () => upload(fallbackPath) }),
      });
    } else {
      throw new FlowHostMigratedError(
        `A Flow media id (${ref.mediaId}) without its display name cannot be attached on flow.google.com: the picker lists assets by name only. Nothing was submitted.`,
        { remediationHint: 'Pass the local file, or the asset together with its recorded display name.' },
      );
    }
  }
  return out;
}

/**
 * Waits for an enabled submit (`ready`: the composer's, by default), reports `submitting` (core
 * checkpoints here, BEFORE the click), marks the operation as possibly spending, and clicks.
 * Returns the tap sequence before the click.
 */
export async function clickSubmit(ctx: OpContext, ready: SubmitReady = waitForSubmitReady): Promise<number> {
  const button = await ready(ctx);
  ctx.check('submitting');
  const since = ctx.tap.seq;
  await ctx.reportSubmitting();
  try {
    await safeClick(ctx, button, 'clicking submit');
  } catch (error) {
    throw ctx.mapError(error, 'clicking submit');
  }
  return since;
}
