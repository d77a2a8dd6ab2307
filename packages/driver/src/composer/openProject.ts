import { ConfigurationError, NetworkError, UiSelectorDriftError } from '@gflow/errors';
import { FLOW_ORIGIN, flowLandingKind, projectIdOfUrl, projectUrl } from '../flow/hosts.js';
import { LANDING_RECHECK_MS, STABLE_LANDING_MS, landingError } from '../flow/landingError.js';
import type { OpContext } from '../session/opContext.js';
import { nextDomChange, untilTrue } from '../util/domWait.js';
import { A, newProjectButton } from './anchors.js';
import { FRAME_STILL_BOUND, unbindLeftFrames, warmPageRefusal } from './warmPage.js';
import { renameInPage } from '../projects/renameInPage.js';

/** How long a new-project click has to reach the editor before the button is tried again (Flow: ~0.5 s, `projectReply`). */
const NEW_PROJECT_MS = 5_000;

export interface OpenTimeouts {
  readonly navigationMs: number;
  readonly readyMs: number;
  /** Budget for the page's `maseQ` reply to an upload (flow-wire §6: 60 s). */
  readonly uploadMs: number;
  /** How long a done clip may lack its mp4 URL (flow-wire §3a: ≤20 s). */
  readonly urlGraceMs: number;
}

/** Loads a Flow URL in the operation's page; a client-side hop that interrupts the load is fine. */
export async function gotoFlow(ctx: OpContext, url: string, timeouts: OpenTimeouts): Promise<void> {
  ctx.landingChecks = false;
  ctx.check('opening Flow');
  try {
    await ctx.page.goto(url, { waitUntil: 'domcontentloaded', timeout: timeouts.navigationMs });
  } catch (error) {
    const mapped = ctx.mapError(error, 'opening Flow');
    if (mapped !== error) throw mapped;
    const message = error instanceof Error ? error.message : String(error);
    if (!/net::ERR_ABORTED/.test(message)) {
      throw new NetworkError(`Could not load ${url}: ${message.split('\n')[0] ?? message}`, { cause: error });
    }
    // else: a client-side hop interrupted the load
  }
}

/**
 * Waits until the editor is ready (the settings trigger or the agent chip is in the DOM).
 * Landings are judged only when they hold: the app hops client-side after `goto` returns.
 */
export async function waitForEditor(ctx: OpContext, timeouts: OpenTimeouts): Promise<void> {
  const deadline = Date.now() + timeouts.readyMs;
  let landing: { url: string; since: number } | null = null;
  for (;;) {
    if (ctx.signal?.aborted === true || ctx.closed) ctx.check('waiting for the Flow editor');
    const url = ctx.page.url();
    const kind = flowLandingKind(url);
    if (kind === 'app') {
      landing = null;
      const ready =
        (await ctx.page
          .locator(`${A.trigger}, ${A.agentChip}, ${A.agentBox}`)
          .count()
          .catch(() => 0)) > 0;
      if (ready) {
        ctx.landingChecks = true;
        return;
      }
    } else if (landing === null || landing.url !== url) {
      landing = { url, since: Date.now() };
    } else if (Date.now() - landing.since >= STABLE_LANDING_MS) {
      const err = landingError(url, ctx.flowHost);
      if (err !== null) throw err;
    }
    if (Date.now() >= deadline) {
      const err = landingError(ctx.page.url(), ctx.flowHost);
      if (err !== null) throw err;
      throw new UiSelectorDriftError(
        `The Flow editor never became ready in ${Math.round(timeouts.readyMs / 1000)} s: \`${A.trigger}\` was not rendered.`,
      );
    }
    await nextDomChange(ctx.page, LANDING_RECHECK_MS);
  }
}

/**
 * Why the warm page cannot be kept for this run (null: it can): warmPageRefusal, after unbinding
 * frames the last run left bound, which a composer that keeps them after a submit shows — unless
 * the run binds frames itself (`framesStay`: it keeps or unbinds them, bindVideo).
 */
async function keptPageRefusal(ctx: OpContext, projectId: string, framesStay: boolean): Promise<string | null> {
  if (framesStay) return warmPageRefusal(ctx, projectId, { framesStay });
  const refusal = await warmPageRefusal(ctx, projectId);
  if (refusal !== FRAME_STILL_BOUND) return refusal;
  return (await unbindLeftFrames(ctx)) ? warmPageRefusal(ctx, projectId) : refusal;
}

/**
 * Opens a project editor; with no project id, creates one from the gallery [U] and returns its id.
 * A warm page already on the project is kept when it is fit (warmPage.ts) and `reuse` is not false;
 * `framesStay`: frames the last run left bound do not make it unfit (the run keeps or unbinds them).
 */
export async function openProject(
  ctx: OpContext,
  projectId: string | undefined,
  timeouts: OpenTimeouts,
  options: { readonly reuse?: boolean; readonly newProjectTitle?: string; readonly framesStay?: boolean } = {},
): Promise<string> {
  if (projectId !== undefined) {
    const refusal =
      options.reuse === false
        ? 'the operation loads the page afresh'
        : await keptPageRefusal(ctx, projectId, options.framesStay === true);
    if (refusal === null) {
      // A warm session's next run on the same project: the open editor, as its last run left it.
      ctx.landingChecks = true;
      ctx.pageKept = true;
      ctx.logger.debug('reusing the open project page', { projectId });
      return projectId;
    }
    ctx.logger.debug('loading the project page', { projectId, because: refusal });
    await gotoFlow(ctx, projectUrl(projectId), timeouts);
    await waitForEditor(ctx, timeouts);
    const landed = projectIdOfUrl(ctx.page.url());
    if (landed !== projectId)
      throw new ConfigurationError(
        `Flow opened ${landed === null ? 'no project' : 'another project'} instead of the project asked for.`,
      );
    return projectId;
  }
  await gotoFlow(ctx, `${FLOW_ORIGIN}/`, timeouts);
  const created = await createProject(ctx, timeouts);
  if (options.newProjectTitle !== undefined) await titleNewProject(ctx, options.newProjectTitle, timeouts);
  return created;
}

/**
 * Gives a project just created for a run its title through the editor's header, as a person
 * would. A title is a nicety: one Flow refuses or never confirms leaves Flow's own name, said in
 * the log, and the run goes on (nothing was spent yet).
 */
async function titleNewProject(ctx: OpContext, title: string, timeouts: OpenTimeouts): Promise<void> {
  try {
    ctx.projectTitle = await renameInPage(ctx.page, title, {
      signal: ctx.signal,
      timeoutMs: Math.min(timeouts.readyMs, 10_000),
    });
  } catch (error) {
    if (ctx.signal?.aborted) throw error;
    await ctx.page.keyboard.press('Escape').catch(() => undefined);
    ctx.logger.warn('the new project kept the title Flow gave it', {
      wanted: title,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

async function createProject(ctx: OpContext, timeouts: OpenTimeouts): Promise<string> {
  const { page } = ctx;
  const newButton = newProjectButton(page);
  const deadline = Date.now() + timeouts.readyMs;
  let landing: { url: string; since: number } | null = null;
  for (;;) {
    const url = page.url();
    if (flowLandingKind(url) !== 'app') {
      if (landing === null || landing.url !== url) landing = { url, since: Date.now() };
      else if (Date.now() - landing.since >= STABLE_LANDING_MS) {
        const err = landingError(url, ctx.flowHost);
        if (err !== null) throw err;
      }
    } else {
      landing = null;
      if (projectIdOfUrl(url) !== null) break;
      if (
        (await newButton.count().catch(() => 0)) > 0 &&
        (await newButton
          .first()
          .isVisible()
          .catch(() => false))
      ) {
        await newButton
          .first()
          .click({ timeout: 5_000 })
          .catch(() => undefined);
        // One click makes one project: wait for the editor's URL before the button may be clicked again.
        await untilTrue(page, async () => projectIdOfUrl(page.url()) !== null, {
          timeoutMs: NEW_PROJECT_MS,
          signal: ctx.signal,
        });
        continue;
      }
    }
    if (Date.now() >= deadline) {
      const err = landingError(page.url(), ctx.flowHost);
      if (err !== null) throw err;
      throw new ConfigurationError(
        'No project id was given and the Flow gallery offered no new-project button (an `add` icon button) in time; pass a project id.',
      );
    }
    await nextDomChange(page, LANDING_RECHECK_MS);
  }
  await waitForEditor(ctx, timeouts);
  const id = projectIdOfUrl(page.url());
  if (id === null) throw new UiSelectorDriftError('Creating a project did not open a /project/<id> editor.');
  return id;
}
