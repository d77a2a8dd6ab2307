import type { Req, Res } from '../net/http.js';
import { readBody, sendJson, sendText, sleep } from '../net/http.js';
import { signedUrl } from '../media/signedUrl.js';
import { autoTitle } from '../rpc/imageSubmit.js';
import type { SimState } from '../state/simState.js';
import { IMAGE_ASPECTS } from '../wire/models.js';
import { flowSession } from './auth.js';

const AGENT_VIDEO_COST = 10;

/**
 * The agent-only composer's turn (not batchexecute; flow-wire §4 says ogiZ0b never fires there
 * and completion is DOM-only). The directive decides image vs video and the aspect ratio.
 * Reply: `{kind, media:[{id, kind, url, posterUrl?, mp4Url?, width, height, name}]}`.
 */
export async function handleAgentTurn(state: SimState, req: Req, res: Res): Promise<void> {
  const raw = (await readBody(req)).toString('utf8');
  const session = flowSession(state, req);
  if (session === undefined || !session.osid) return sendText(res, 401, 'Unauthorized');
  const { account } = session;
  if (
    req.headers['x-same-domain'] !== '1' ||
    req.headers['x-goog-csrf-token'] !== state.signer.mint(account.email, account.sessionGeneration, 'at')
  )
    return sendText(res, 400, 'Bad Request');
  const body = JSON.parse(raw) as { projectId?: string; message?: string };
  const project = state.library.projects.get(body.projectId ?? '');
  if (project === undefined || project.owner !== account.email || typeof body.message !== 'string')
    return sendText(res, 400, 'Bad Request');
  const message = body.message;
  const isVideo = /\b(video|clip|animate|film)\b/i.test(message);
  const ratio = /(\d+)\s*:\s*(\d+)/.exec(message);
  const wanted = ratio === null ? '16:9' : `${ratio[1]}:${ratio[2]}`;
  const cost = isVideo ? AGENT_VIDEO_COST : 0;
  state.received.push({
    at: Date.now() - state.startedAt,
    email: account.email,
    rpcId: 'agent.turn',
    rpcidsParam: '',
    sourcePath: `/project/${project.id}`,
    fReq: '',
    inner: raw,
    rawBody: raw,
    at_token: '',
    charged: cost,
    httpStatus: 200,
  });
  if (account.credits < cost) return sendText(res, 402, 'Insufficient credits');
  account.credits -= cost;
  const now = Date.now();
  let reply: Record<string, unknown>;
  if (isVideo) {
    const portrait = wanted === '9:16';
    const media = state.library.addMedia({
      projectId: project.id,
      owner: account.email,
      kind: 'video',
      name: autoTitle(message),
      prompt: message,
      model: 'veo_3_1_t2v_lite',
      aspectIndex: portrait ? 1 : 2,
      width: portrait ? 720 : 1280,
      height: portrait ? 1280 : 720,
      seed: state.random.int(1, 999_999),
      createdAt: now,
      mimeType: 'video/mp4',
      hiddenForSearches: 0,
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
        charged: cost,
        refunded: false,
      },
    });
    await sleep(state.ms('videoDoneAfter'));
    reply = {
      kind: 'video',
      media: [
        {
          id: media.id,
          kind: 'video',
          name: media.name,
          posterUrl: signedUrl(state, `/image/${media.id}`),
          mp4Url: signedUrl(state, `/video/${media.id}`),
          width: media.width,
          height: media.height,
        },
      ],
    };
  } else {
    const aspect = IMAGE_ASPECTS.find((a) => a.ratio === wanted) ?? IMAGE_ASPECTS[0];
    const media = state.library.addMedia({
      projectId: project.id,
      owner: account.email,
      kind: 'image',
      name: autoTitle(message),
      prompt: message,
      model: 'NARWHAL',
      aspectIndex: aspect.index,
      width: aspect.width,
      height: aspect.height,
      seed: state.random.int(1, 999_999),
      createdAt: now,
      mimeType: 'image/jpeg',
      hiddenForSearches: 0,
    });
    await sleep(state.ms('imageReply'));
    reply = {
      kind: 'image',
      media: [
        {
          id: media.id,
          kind: 'image',
          name: media.name,
          url: signedUrl(state, `/image/${media.id}`),
          width: media.width,
          height: media.height,
        },
      ],
    };
  }
  state.onChange();
  if (!res.destroyed) sendJson(res, 200, reply);
}
