import { signedUrl } from '../media/signedUrl.js';
import { escapeHtml } from '../net/http.js';
import type { Account } from '../state/accounts.js';
import type { Media, Project } from '../state/library.js';
import type { SimState } from '../state/simState.js';
import { imageReady, videoStatus, videoUrlsReady } from '../wire/records.js';
import { IMAGE_ASPECTS, IMAGE_MODELS, VIDEO_ASPECTS, VIDEO_MODELS } from '../wire/models.js';
import { labelsFor } from './labels.js';
import { briefPayload } from '../rpc/brief.js';
import { agentSettingsOf } from '../state/agentSettings.js';
import type { SceneBoot } from './sceneBoot.js';
import { driftForPage } from '../drift.js';

export type FlowRoute = 'gallery' | 'project' | 'scene' | 'about' | 'notfound' | 'unavailable';

export interface ShellInput {
  route: FlowRoute;
  /** What the client-side router does ~300 ms after load (signed out → /about, …). */
  hop: string | null;
  account: Account | undefined;
  project: Project | undefined;
  identityRecheck: boolean;
  consent: boolean;
  /** Overrides the account's cohort for this load (failure switch agent_only_loads). */
  cohort?: Account['cohort'];
  /** The scene editor's scene (route `scene`). */
  scene?: SceneBoot;
}

function tileOf(state: SimState, m: Media, now: number): Record<string, unknown> {
  const base = {
    id: m.id,
    workflowId: m.workflowId,
    kind: m.kind,
    name: m.name,
    token: m.token,
    width: m.width,
    height: m.height,
    prompt: m.prompt,
    model: m.model,
  };
  if (m.kind !== 'video') {
    // An image still generating is listed as pending (its tile per the variant pendingImage).
    if (!imageReady(m, now)) return { ...base, status: 2, url: null };
    return { ...base, status: 3, url: signedUrl(state, `/image/${m.id}`) };
  }
  const status = videoStatus(m, now);
  const ready = videoUrlsReady(m, now);
  return {
    ...base,
    status,
    url: ready ? signedUrl(state, `/image/${m.id}`) : null,
    videoUrl: ready ? signedUrl(state, `/video/${m.id}`) : null,
  };
}

/** The Angular-style shell: boot data inline, the app's own modules from /_/static/. */
export function flowShell(state: SimState, input: ShellInput): string {
  const { account, project } = input;
  const now = Date.now();
  const boot = {
    route: input.route,
    hop: input.hop,
    locale: state.locale,
    labels: labelsFor(state.locale),
    latencyScale: state.scale,
    email: account?.email ?? null,
    cohort: input.cohort ?? account?.cohort ?? 'classic',
    credits: account?.credits ?? 0,
    tier: account?.tier ?? 'free',
    pickerCommit: account?.pickerCommit ?? 'click',
    consentBar: input.consent ? (account?.consentBar ?? 'none') : 'none',
    promoDialog: account?.promoDialog ?? false,
    uploadTermsAccepted: account?.uploadTermsAccepted ?? false,
    lowerPriority: account?.lowerPriority ?? false,
    identityRecheck: input.identityRecheck,
    // Test switch: the page's submit ignores part of what the composer shows (see README).
    variants: { ...state.variants },
    // Test switch: anchors renamed and replies reshaped, as a Flow release could (drift.ts).
    drift: driftForPage(state.drift),
    wrongSubmitBody: account !== undefined && state.failures.peek(account.email, 'wrong_submit_body') !== null,
    // [U] A settings pane without its cost line (a cohort or layout gflow has not seen; see README).
    noCostLine: account !== undefined && state.failures.peek(account.email, 'no_cost_line') !== null,
    project:
      project === undefined
        ? null
        : {
            id: project.id,
            title: project.title,
            // The brief in the save reply's layout (rpc/brief.ts), so the panel reads one shape.
            brief: briefPayload(state.library, project),
            agent: agentSettingsOf(state, project),
            characters: project.characters.map((c) => ({ entityId: c.entityId, displayName: c.displayName })),
            media: state.library
              .mediaOfProject(project.id)
              .filter((m) => m.kind !== 'upload')
              .map((m) => tileOf(state, m, now)),
          },
    scene: input.scene ?? null,
    projects:
      account === undefined
        ? []
        : state.library.projectsOf(account.email).map((p) => ({ id: p.id, title: p.title, createdAt: p.createdAt })),
    models: { video: VIDEO_MODELS, image: IMAGE_MODELS, imageAspects: IMAGE_ASPECTS, videoAspects: VIDEO_ASPECTS },
  };
  const wiz = {
    SNlM0e: account === undefined ? null : state.signer.mint(account.email, account.sessionGeneration, 'at'),
    FdrFJe: String(state.random.int(1e17, 9e17)),
    cfb2h: 'boq_labs-ai-sandbox-frontend_20261006.09_p0',
  };
  const json = (v: unknown): string => JSON.stringify(v).replace(/</g, '\\u003c');
  const lang = state.locale.split('-')[0] ?? 'en';
  return `<!doctype html><html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><title>Flow</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><link rel="stylesheet" href="/_/static/flow.css">
<script>window.WIZ_global_data=${json(wiz)};window.__flowBoot=${json(boot)};</script>
<script type="module" src="/_/static/main.js"></script></head>
<body><aisandbox-root ng-version="20.1.0"></aisandbox-root></body></html>`;
}
