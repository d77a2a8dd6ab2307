import { ACCOUNTS_HOST, FLOW_HOST } from '../net/hosts.js';
import type { Req, Res } from '../net/http.js';
import { addCookies, parseCookies, redirect, sendHtml, sendText } from '../net/http.js';
import { googlevideoUrl, signedUrl } from '../media/signedUrl.js';
import { imageReady, videoUrlsReady } from '../wire/records.js';
import { flowShell } from '../pages/flowShell.js';
import { type SceneBoot, sceneBoot } from '../pages/sceneBoot.js';
import type { FlowRoute } from '../pages/flowShell.js';
import type { SimState } from '../state/simState.js';
import { flowSession, googleSession, osidCookies } from './auth.js';
import { AGENT_PATHS, handleAgentRun, handleAgentSettings, handleAgentTurn } from './agentTurn.js';
import { handleBatchexecute } from './batchexecute.js';
import { sendAsset } from './staticAssets.js';

const BATCH_PATH = '/_/AiSandboxAngularFrontend/data/batchexecute';
/** `/asb/<token>=v` is a clip's video (the page appends it to the tile's token). */
const VIDEO_TOKEN_SUFFIX = '=v';

export async function handleFlow(state: SimState, req: Req, res: Res, url: URL, hanging: Set<Res>): Promise<void> {
  const path = url.pathname;
  if (path === BATCH_PATH && req.method === 'POST') return handleBatchexecute(state, req, res, url, hanging);
  if (req.method === 'POST' && path === AGENT_PATHS.turn) return handleAgentTurn(state, req, res);
  if (req.method === 'POST' && path === AGENT_PATHS.run) return handleAgentRun(state, req, res);
  if (req.method === 'POST' && path === AGENT_PATHS.settings) return handleAgentSettings(state, req, res);
  if (path.startsWith('/_/static/')) return sendAsset(res, path.slice('/_/static/'.length));
  if (path === '/_/login') {
    const read = state.signer.read(url.searchParams.get('auth') ?? undefined, 'osid-handoff');
    const account = read === null ? undefined : state.account(read.email);
    const cont = url.searchParams.get('continue') ?? '/';
    const target = cont.startsWith(`https://${FLOW_HOST}/`) ? cont : `https://${FLOW_HOST}/`;
    if (account === undefined || read?.generation !== account.sessionGeneration)
      return redirect(res, 302, `https://${FLOW_HOST}/about`);
    addCookies(res, osidCookies(state, account));
    return redirect(res, 302, target);
  }
  if (path.startsWith('/asb/')) {
    // Opaque, session-gated thumbnails: `<token>` is an image (or a clip's poster), `<token>=v`
    // a clip's playable video, which redirects to googlevideo (flow-captures.md §2).
    const session = flowSession(state, req);
    const raw = path.slice('/asb/'.length);
    const video = raw.endsWith(VIDEO_TOKEN_SUFFIX);
    const media = state.library.byToken(video ? raw.slice(0, -VIDEO_TOKEN_SUFFIX.length) : raw);
    if (
      session === undefined ||
      media === undefined ||
      media.owner !== session.account.email ||
      !imageReady(media, Date.now())
    )
      return sendText(res, 404, 'Not Found');
    if (!video) return redirect(res, 302, signedUrl(state, `/image/${media.id}`));
    if (media.kind !== 'video' || !videoUrlsReady(media, Date.now())) return sendText(res, 404, 'Not Found');
    return redirect(res, 302, googlevideoUrl(state, media.id));
  }
  if (path === '/favicon.ico') return sendText(res, 204, '');
  const route = routeOf(path);
  if (route === null)
    return sendHtml(res, 404, '<!doctype html><title>Error 404 (Not Found)</title><p>404. That’s an error.</p>');
  const google = googleSession(state, req);
  const session = flowSession(state, req);
  // A live Google session without flow.google.com's OSID goes through ServiceLogin once.
  if (google !== undefined && session !== undefined && !session.osid && route !== 'about') {
    const cont = `https://${FLOW_HOST}${path}${url.search}`;
    return redirect(
      res,
      302,
      `https://${ACCOUNTS_HOST}/ServiceLogin?${new URLSearchParams({ service: 'aisandbox', passive: 'true', continue: cont })}`,
    );
  }
  const account = session?.osid === true ? session.account : undefined;
  const recheck = account !== undefined && state.failures.peek(account.email, 'identity_recheck') !== null;
  const signedIn = account !== undefined && !recheck;
  let hop: string | null = null;
  let project;
  let scene: SceneBoot | undefined;
  if (route === 'gallery' || route === 'project' || route === 'scene') {
    if (!signedIn) hop = '/about';
    else if (!account.flowAccess) hop = '/unavailable';
    else if (route !== 'gallery') {
      const id = /^\/project\/([^/]+)/.exec(path)?.[1] ?? '';
      project = state.library.projects.get(id);
      if (project === undefined || project.owner !== account.email) {
        project = undefined;
        hop = '/404?reason=project';
      } else if (route === 'scene') {
        const found = sceneOfPath(state, path, project.id, account.email);
        if (found === undefined) hop = '/404?reason=scene';
        else scene = sceneBoot(state, found, Date.now());
      }
    }
  }
  state.received.pushPage({ at: Date.now() - state.startedAt, email: signedIn ? account.email : null, path });
  const consent = parseCookies(req).get('SOCS') === undefined;
  // A project load that serves the agent-only composer whatever the cohort (the switch's `times`).
  const agentOnlyLoad =
    route === 'project' &&
    project !== undefined &&
    signedIn &&
    state.failures.take(account.email, 'agent_only_loads') !== null;
  sendHtml(
    res,
    200,
    flowShell(state, {
      route: route as FlowRoute,
      hop,
      account: signedIn ? account : undefined,
      project,
      identityRecheck: recheck,
      consent,
      ...(agentOnlyLoad ? { cohort: 'agent_only' as const } : {}),
      ...(scene === undefined ? {} : { scene }),
    }),
  );
}

function routeOf(path: string): FlowRoute | null {
  if (path === '/') return 'gallery';
  if (/^\/project\/[^/]+\/scene\/[^/]+\/?$/.test(path)) return 'scene';
  if (/^\/project\/[^/]+(\/edit\/[^/]+)?\/?$/.test(path)) return 'project';
  if (path === '/about') return 'about';
  if (path === '/404') return 'notfound';
  if (path === '/unavailable') return 'unavailable';
  return null;
}

/** The scene a `/project/<pid>/scene/<sid>` path names, if it is this project's and this account's. */
function sceneOfPath(state: SimState, path: string, projectId: string, owner: string) {
  const id = /^\/project\/[^/]+\/scene\/([^/]+)/.exec(path)?.[1] ?? '';
  return state.scenes.inProject(id, projectId, owner);
}
