import type { Req, Res } from '../net/http.js';
import { readBody, sendJson, sendText, sleep } from '../net/http.js';
import { signedUrl } from '../media/signedUrl.js';
import { autoTitle } from '../rpc/imageSubmit.js';
import type { AgentSettings, Project } from '../state/library.js';
import type { SimState } from '../state/simState.js';
import type { Account } from '../state/accounts.js';
import { IMAGE_ASPECTS, IMAGE_MODELS, VIDEO_MODELS } from '../wire/models.js';
import { flowSession } from './auth.js';
import { labelsFor } from '../pages/labels.js';
import { agentSettingsOf } from '../state/agentSettings.js';

/**
 * The agent-only composer's server side (flow-wire §4 "Agent-only composer (#799)"). The real
 * agent channel was never captured, so the three endpoints are the simulator's invention [U]; what
 * the page shows (settings view, permission message, pending and finished tiles, the chat) follows
 * flow-wire §4. Completion is DOM-only for the driver: it never reads these replies.
 *
 * - `POST …/agent/settings {projectId, settings?}` reads (no `settings`) or saves the project's
 *   agent settings (labs: `PATCH /v1/projects/{pid}/agentInfo`, flow-wire §3b).
 * - `POST …/agent/turn {projectId, message}` plans a turn from the directive and the saved settings:
 *   `{turnId, plan:{kind, count}, reply, confirm?:{text}}` (a confirmation when "Confirm before
 *   generating" is Always — for video; for images only under the agentImageGate variant).
 * - `POST …/agent/run {turnId, approve}` runs an approved turn: `{reply, media[]}`, or a second
 *   `{confirm}` (failure switch agent_second_confirm), or `{reply, media:[]}` when rejected.
 */
export const AGENT_PATHS = {
  settings: '/_/AiSandboxAngularFrontend/agent/settings',
  turn: '/_/AiSandboxAngularFrontend/agent/turn',
  run: '/_/AiSandboxAngularFrontend/agent/run',
} as const;

interface PlannedTurn {
  readonly id: string;
  readonly email: string;
  readonly projectId: string;
  readonly message: string;
  readonly kind: 'image' | 'video';
  readonly aspect: string;
  readonly count: number;
  readonly model: string;
  readonly cost: number;
  confirmations: number;
  done: boolean;
}

const turnsOf = new WeakMap<SimState, Map<string, PlannedTurn>>();

function turns(state: SimState): Map<string, PlannedTurn> {
  let map = turnsOf.get(state);
  if (map === undefined) {
    map = new Map();
    turnsOf.set(state, map);
  }
  return map;
}

const IMAGE_COUNTS = [1, 2, 3, 4];
const VIDEO_COUNTS = [1, 2];

function checkSettings(raw: unknown): AgentSettings | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const s = raw as Record<string, unknown>;
  const ok =
    IMAGE_ASPECTS.some((a) => a.ratio === s['imageAspect']) &&
    IMAGE_COUNTS.includes(s['imageCount'] as number) &&
    (s['videoAspect'] === '16:9' || s['videoAspect'] === '9:16') &&
    VIDEO_COUNTS.includes(s['videoCount'] as number) &&
    IMAGE_MODELS.some((m) => m.label === s['imageModel']) &&
    VIDEO_MODELS.some((m) => m.label === s['videoModel']) &&
    (s['confirm'] === 'always' || s['confirm'] === 'never');
  return ok ? (s as unknown as AgentSettings) : null;
}

async function authorised(
  state: SimState,
  req: Req,
  res: Res,
): Promise<{ account: Account; body: Record<string, unknown>; raw: string } | null> {
  const raw = (await readBody(req)).toString('utf8');
  const session = flowSession(state, req);
  if (session === undefined || !session.osid) {
    sendText(res, 401, 'Unauthorized');
    return null;
  }
  const { account } = session;
  if (
    req.headers['x-same-domain'] !== '1' ||
    req.headers['x-goog-csrf-token'] !== state.signer.mint(account.email, account.sessionGeneration, 'at')
  ) {
    sendText(res, 400, 'Bad Request');
    return null;
  }
  try {
    return { account, body: JSON.parse(raw) as Record<string, unknown>, raw };
  } catch {
    sendText(res, 400, 'Bad Request');
    return null;
  }
}

function record(
  state: SimState,
  account: Account,
  call: { rpcId: string; projectId: string; raw: string; charged?: number; replyDelayMs?: number },
): void {
  const { rpcId, projectId, raw, charged = 0, replyDelayMs = 0 } = call;
  state.received.push({
    at: Date.now() - state.startedAt,
    email: account.email,
    rpcId,
    rpcidsParam: '',
    sourcePath: `/project/${projectId}`,
    fReq: '',
    inner: raw,
    rawBody: raw,
    at_token: '',
    charged,
    httpStatus: 200,
    replyDelayMs,
  });
}

function ownProject(state: SimState, account: Account, id: unknown): Project | undefined {
  const project = state.library.projects.get(typeof id === 'string' ? id : '');
  return project !== undefined && project.owner === account.email ? project : undefined;
}

export async function handleAgentSettings(state: SimState, req: Req, res: Res): Promise<void> {
  const ok = await authorised(state, req, res);
  if (ok === null) return;
  const project = ownProject(state, ok.account, ok.body['projectId']);
  if (project === undefined) return sendText(res, 400, 'Bad Request');
  if (ok.body['settings'] !== undefined) {
    const settings = checkSettings(ok.body['settings']);
    if (settings === null) return sendText(res, 400, 'Bad Request');
    project.agent = { ...settings };
    record(state, ok.account, { rpcId: 'agent.settings', projectId: project.id, raw: ok.raw });
    state.onChange();
  }
  sendJson(res, 200, { settings: agentSettingsOf(state, project) });
}

/** The directive's kind: its head ("Make me a picture / 2 videos of …"), else a keyword. */
function kindOf(message: string): 'image' | 'video' {
  const head = /^\s*(?:please\s+)?(?:make|create|generate)\s+(?:me\s+)?(?:a|an|one|\d+)\s+(\w+)/i.exec(message)?.[1];
  if (head !== undefined) return /^(video|clip|film|movie)s?$/i.test(head) ? 'video' : 'image';
  return /\b(video|clip|animate|film)\b/i.test(message) ? 'video' : 'image';
}

function quote(state: SimState, turn: PlannedTurn, countReadable: boolean): string {
  const labels = labelsFor(state.locale);
  // [U] the wording. Numbers in reading order: the count, then the credits (README "Agent-only composer").
  if (!countReadable) return labels.gate.replace('{n}', String(turn.cost));
  return labels.agentQuote
    .replace('{count}', String(turn.count))
    .replace('{noun}', turn.kind === 'video' ? labels.agentVideos : labels.agentImages)
    .replace('{model}', turn.model)
    .replace('{n}', String(turn.cost));
}

export async function handleAgentTurn(state: SimState, req: Req, res: Res): Promise<void> {
  const ok = await authorised(state, req, res);
  if (ok === null) return;
  const { account, body, raw } = ok;
  const project = ownProject(state, account, body['projectId']);
  const message = body['message'];
  if (project === undefined || typeof message !== 'string' || message.trim() === '')
    return sendText(res, 400, 'Bad Request');
  const settings = agentSettingsOf(state, project);
  const kind = kindOf(message);
  const ratio = /(\d+)\s*:\s*(\d+)/.exec(message);
  // The directive's aspect beats the saved default (flow-wire §4, measured); the count is the saved one [U].
  const aspect =
    ratio === null ? (kind === 'video' ? settings.videoAspect : settings.imageAspect) : `${ratio[1]}:${ratio[2]}`;
  const more = state.failures.take(account.email, 'agent_quote_more') !== null;
  const count = (kind === 'video' ? settings.videoCount : settings.imageCount) + (more ? 1 : 0);
  const model = kind === 'video' ? settings.videoModel : settings.imageModel;
  const unit =
    kind === 'video'
      ? (VIDEO_MODELS.find((m) => m.label === model)?.cost ?? 10)
      : (IMAGE_MODELS.find((m) => m.label === model)?.cost ?? 0);
  const turn: PlannedTurn = {
    id: state.random.uuid(),
    email: account.email,
    projectId: project.id,
    message,
    kind,
    aspect,
    count,
    model,
    cost: unit * count,
    confirmations: 0,
    done: false,
  };
  turns(state).set(turn.id, turn);
  record(state, account, { rpcId: 'agent.turn', projectId: project.id, raw });
  const gated = settings.confirm === 'always' && (kind === 'video' || state.variants.agentImageGate === 'confirm');
  const unreadable = kind === 'video' && state.failures.take(account.email, 'agent_unreadable_count') !== null;
  sendJson(res, 200, {
    turnId: turn.id,
    plan: { kind, count },
    reply: kind === 'video' ? 'Sure, I will make that video.' : 'Sure, here it comes.',
    ...(gated ? { confirm: { text: quote(state, turn, !unreadable) } } : {}),
  });
}

export async function handleAgentRun(state: SimState, req: Req, res: Res): Promise<void> {
  const ok = await authorised(state, req, res);
  if (ok === null) return;
  const { account, body, raw } = ok;
  const turn = turns(state).get(typeof body['turnId'] === 'string' ? body['turnId'] : '');
  if (turn === undefined || turn.email !== account.email || turn.done) return sendText(res, 400, 'Bad Request');
  const project = state.library.projects.get(turn.projectId);
  if (project === undefined) return sendText(res, 400, 'Bad Request');
  if (body['approve'] !== true) {
    turn.done = true;
    record(state, account, { rpcId: 'agent.reject', projectId: project.id, raw });
    return sendJson(res, 200, { reply: 'OK, I will not make it.', media: [] });
  }
  if (turn.confirmations === 0 && state.failures.take(account.email, 'agent_second_confirm') !== null) {
    turn.confirmations += 1;
    return sendJson(res, 200, { confirm: { text: quote(state, turn, true) } });
  }
  turn.done = true;
  if (account.credits < turn.cost) {
    record(state, account, { rpcId: 'agent.run', projectId: project.id, raw });
    return sendJson(res, 200, { reply: 'You do not have enough credits for that.', media: [] });
  }
  account.credits -= turn.cost;
  const held = state.ms(turn.kind === 'video' ? 'videoDoneAfter' : 'imageReply');
  const noResult = state.failures.take(account.email, 'agent_no_result') !== null;
  const replyDelayMs = noResult ? held / 4 : held;
  record(state, account, { rpcId: 'agent.run', projectId: project.id, raw, charged: turn.cost, replyDelayMs });
  if (noResult) {
    await sleep(replyDelayMs);
    return sendJson(res, 200, {
      reply: 'I could not make that right now. Let me know if you want me to try again.',
      media: [],
    });
  }
  const extra = state.failures.take(account.email, 'agent_extra_results') !== null ? 1 : 0;
  const made = Array.from({ length: turn.count + extra }, () => makeMedia(state, project, account, turn));
  await sleep(replyDelayMs);
  state.onChange();
  if (res.destroyed) return;
  sendJson(res, 200, {
    reply: turn.kind === 'video' ? 'Here is your video.' : 'Here you go.',
    media: made.map((m) => ({
      id: m.id,
      kind: m.kind,
      name: m.name,
      token: m.token,
      url: signedUrl(state, `/image/${m.id}`),
      ...(m.kind === 'video'
        ? { mp4Url: signedUrl(state, `/video/${m.id}`), posterUrl: signedUrl(state, `/image/${m.id}`) }
        : {}),
      width: m.width,
      height: m.height,
    })),
  });
}

function makeMedia(state: SimState, project: Project, account: Account, turn: PlannedTurn) {
  const now = Date.now();
  const common = {
    projectId: project.id,
    owner: account.email,
    name: autoTitle(turn.message.replace(/^\s*make me (a|an|\d+) \w+ of\s+/i, '')),
    prompt: turn.message,
    seed: state.random.int(1, 999_999),
    createdAt: now,
    hiddenForSearches: 0,
  };
  if (turn.kind === 'image') {
    const aspect = IMAGE_ASPECTS.find((a) => a.ratio === turn.aspect) ?? IMAGE_ASPECTS[0];
    return state.library.addMedia({
      ...common,
      kind: 'image',
      model: IMAGE_MODELS.find((m) => m.label === turn.model)?.token ?? 'BELUGA',
      aspectIndex: aspect.index,
      width: aspect.width,
      height: aspect.height,
      mimeType: 'image/jpeg',
    });
  }
  const portrait = turn.aspect === '9:16';
  const video = VIDEO_MODELS.find((m) => m.label === turn.model);
  return state.library.addMedia({
    ...common,
    kind: 'video',
    model: video?.keys.t2v8 ?? video?.keys.t2v.replace('{d}', '').replace('{dur}', '8s') ?? 'veo_3_1_t2v_lite',
    aspectIndex: portrait ? 1 : 2,
    width: portrait ? 720 : 1280,
    height: portrait ? 1280 : 720,
    mimeType: 'video/mp4',
    video: {
      submittedAt: now,
      runningAt: now,
      doneAt: now,
      urlAt: now,
      seconds: 8,
      resolution: '720p',
      finalStatus: 3,
      stuck: false,
      withoutUrl: false,
      swapped: false,
      sizeMismatch: false,
      charged: turn.cost / turn.count,
      refunded: false,
    },
  });
}
