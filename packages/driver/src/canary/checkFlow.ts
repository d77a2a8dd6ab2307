import { hasErrorCode, redactAndClip, toGflowError } from '@gflow/errors';
import { newProjectButton } from '../composer/anchors.js';
import { type OpenTimeouts, gotoFlow, openProject } from '../composer/openProject.js';
import { FLOW_ORIGIN, flowLandingKind } from '../flow/hosts.js';
import { SubmitGuard } from '../generate/submitGuard.js';
import { waitForAnchor } from '../projects/flowPage.js';
import type { OpContext } from '../session/opContext.js';
import { type AnchorCapture, NO_RECORDER, anchorRecorder } from './captureAnchors.js';
import type { AnchorRecorder, CapabilityResult, ComposerArm, ProbeScope } from './capability.js';
import { COMPOSER_PROBE } from './composerProbes.js';
import { CAPABILITY_PROBES } from './probeList.js';
import { type ReplyCheck, checkReplies } from './replyChecks.js';
import { type ReplyShapes, cleanBuildLabel, replyShapes } from './replyShape.js';
import { runProbe, unreached } from './runProbe.js';

/** What `checkFlow` is asked: the scratch project to reuse (if any), the title of one it creates, whether to capture. */
export interface FlowCheckRequest {
  /** The profile's scratch project; when omitted, or gone, one is created from the gallery. */
  readonly projectId?: string;
  /** The title a scratch project it creates gets. */
  readonly newProjectTitle: string;
  /** Also gather the redacted capture (masked anchors, reply shapes, build label). */
  readonly capture: boolean;
}

/** The redacted capture: nothing in it is a value the user typed, owns or is signed in with. */
export interface FlowCapture {
  readonly anchors: readonly AnchorCapture[];
  readonly replies: readonly ReplyShapes[];
}

/** What the check found: every capability, the replies read on the way, and the capture when asked. */
export interface FlowCheckReport {
  readonly projectId: string | null;
  readonly projectCreated: boolean;
  readonly arm: ComposerArm;
  /** The app's release, as its page names it (`boq_labs-ai-sandbox-frontend_…`); null when unreadable. */
  readonly buildLabel: string | null;
  readonly capabilities: readonly CapabilityResult[];
  readonly replies: readonly ReplyCheck[];
  readonly capture: FlowCapture | null;
}

const GALLERY = {
  id: 'gallery.new_project',
  title: 'New-project button',
  expected: "the gallery's `add` icon button outside the prompt box (how a run without a project makes one)",
};

/** How long the gallery may take to show its new-project button once the app is up. */
const GALLERY_MS = 20_000;

async function checkGallery(ctx: OpContext, timeouts: OpenTimeouts, record: AnchorRecorder): Promise<CapabilityResult> {
  await gotoFlow(ctx, `${FLOW_ORIGIN}/`, timeouts);
  const button = newProjectButton(ctx.page);
  const shown = await waitForAnchor(ctx.page, button, {
    signal: ctx.signal,
    timeoutMs: Math.min(timeouts.readyMs, GALLERY_MS),
  });
  if (shown) await record('button:has(mat-icon:text("add"))', button);
  ctx.landingChecks = true;
  return shown
    ? { ...GALLERY, status: 'ok', found: 'present' }
    : { ...GALLERY, status: 'drifted', found: 'the gallery shows no `add` icon button outside the prompt box' };
}

type Opened = { readonly projectId: string; readonly created: boolean } | { readonly missing: string };

/** The scratch project, loaded afresh (a check looks at what Flow serves now); one is created when none is known or it is gone. */
async function openScratch(
  ctx: OpContext,
  request: FlowCheckRequest,
  timeouts: OpenTimeouts,
  canCreate: boolean,
): Promise<Opened> {
  try {
    if (request.projectId !== undefined) {
      try {
        return { projectId: await openProject(ctx, request.projectId, timeouts, { reuse: false }), created: false };
      } catch (error) {
        if (flowLandingKind(ctx.page.url()) !== 'project-denied') throw error;
        ctx.logger.info('the scratch project is gone; creating another');
      }
    }
    if (!canCreate) return { missing: 'no scratch project to open, and no new-project button to make one' };
    const title = request.newProjectTitle;
    return { projectId: await openProject(ctx, undefined, timeouts, { newProjectTitle: title }), created: true };
  } catch (error) {
    // The editor never showed a composer: that is the composer's drift, the check's finding.
    if (!hasErrorCode(error, 'ui-selector-drift') && !hasErrorCode(error, 'configuration')) throw error;
    ctx.check('opening the scratch project');
    return { missing: redactAndClip(toGflowError(error).detail, 400) };
  }
}

async function readBuildLabel(ctx: OpContext): Promise<string | null> {
  const label = await ctx.page
    .evaluate(() => (window as unknown as { WIZ_global_data?: { cfb2h?: unknown } }).WIZ_global_data?.cfb2h)
    .catch(() => undefined);
  if (cleanBuildLabel(label) !== null) return cleanBuildLabel(label);
  const url = ctx.tap.requests.at(-1)?.request.url();
  return url === undefined ? null : cleanBuildLabel(new URL(url).searchParams.get('bl'));
}

/** Runs the composer probe, then every capability probe, then puts back what they changed. */
async function runAll(
  ctx: OpContext,
  recorderFor: (probe: string) => AnchorRecorder,
): Promise<{
  results: CapabilityResult[];
  arm: ComposerArm;
}> {
  const scope: ProbeScope = { ctx, arm: 'none', record: async () => undefined, restore: [] };
  const results = await runProbe(scope, COMPOSER_PROBE, recorderFor, [], { always: true });
  for (const probe of CAPABILITY_PROBES) results.push(...(await runProbe(scope, probe, recorderFor, results)));
  for (const undo of scope.restore.reverse()) {
    await undo().catch((error: unknown) =>
      ctx.logger.warn('could not put a setting back after the check', { error: toGflowError(error).detail }),
    );
  }
  return { results, arm: scope.arm };
}

/**
 * The free live canary (`gflow doctor --live`): opens the gallery and the profile's scratch project
 * (created once), walks every control a generation needs with the generation path's own anchors,
 * and reads the read-only replies met on the way with the driver's own parsers. Submits nothing and
 * spends nothing: every submit the page might send is held and aborted in the browser by a
 * SubmitGuard that refuses them all, and no probe clicks a submit, an upload file or a menu entry
 * that makes something. With `capture`, also gathers the redacted capture.
 */
export async function checkFlow(
  ctx: OpContext,
  request: FlowCheckRequest,
  timeouts: OpenTimeouts,
): Promise<FlowCheckReport> {
  const guard = new SubmitGuard(ctx, () => ({
    ok: false,
    problems: ['gflow doctor --live submits nothing'],
    modelKey: null,
  }));
  await guard.install();
  const anchors: AnchorCapture[] = [];
  const recorderFor = request.capture ? anchorRecorder(anchors) : NO_RECORDER;
  try {
    ctx.report({ phase: 'opening' });
    const gallery = await checkGallery(ctx, timeouts, recorderFor(GALLERY.id));
    const opened = await openScratch(ctx, request, timeouts, gallery.status === 'ok');
    let run: { results: CapabilityResult[]; arm: ComposerArm };
    if ('missing' in opened) {
      const composer = { id: COMPOSER_PROBE.id, title: COMPOSER_PROBE.title, expected: COMPOSER_PROBE.expected };
      run = {
        arm: 'none',
        results: [
          { ...composer, status: 'drifted', found: opened.missing },
          ...CAPABILITY_PROBES.map((p) => unreached(p, { arm: 'none' })),
        ],
      };
    } else {
      ctx.report({ phase: 'configuring', projectId: opened.projectId });
      run = await runAll(ctx, recorderFor);
    }
    const projectId = 'missing' in opened ? null : opened.projectId;
    ctx.report({ phase: 'done', ...(projectId === null ? {} : { projectId }) });
    return {
      projectId,
      projectCreated: 'created' in opened && opened.created,
      arm: run.arm,
      buildLabel: await readBuildLabel(ctx),
      capabilities: [gallery, ...run.results],
      replies: checkReplies(ctx.tap.responses),
      capture: request.capture ? { anchors, replies: replyShapes(ctx.tap.responses) } : null,
    };
  } finally {
    await guard.remove();
  }
}
