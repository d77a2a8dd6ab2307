import type { Req, Res } from '../net/http.js';
import { sendText } from '../net/http.js';
import { checkSignedUrl } from '../media/signedUrl.js';
import { imageFor, mp4For } from '../media/catalogMedia.js';
import { makeGif } from '../media/gif.js';
import { resolveVideo } from '../rpc/videoPoll.js';
import type { SimState } from '../state/simState.js';

/** flow-content.google: signed image/poster JPEGs and MP4s; no cookies needed. */
export function handleContent(state: SimState, req: Req, res: Res, url: URL): void {
  res.setHeader('access-control-allow-origin', '*');
  const match = /^\/(image|video|gif)\/([0-9a-f-]+(?:_upsampled)?)$/.exec(url.pathname);
  if (match === null) return sendText(res, 404, 'Not Found');
  // The GIF export carries its clip's signature (`/video/<id>`), see grid.js.
  const check = checkSignedUrl(state, url, match[1] === 'gif' ? `/video/${match[2] ?? ''}` : undefined);
  if (check !== 'ok') return sendText(res, 403, check === 'expired' ? 'Expired' : 'Forbidden');
  // An extension's clip is served under its workflow id (flow-captures.md §10).
  const media = resolveVideo(state, match[2] ?? '') ?? state.library.byWorkflow(match[2] ?? '');
  if (media === undefined) return sendText(res, 404, 'Not Found');
  let body: Buffer;
  let type: string;
  if (match[1] === 'video') {
    if (media.kind !== 'video') return sendText(res, 404, 'Not Found');
    body = mp4For(state, media, media.id.endsWith('_upsampled'));
    type = 'video/mp4';
  } else if (match[1] === 'gif') {
    // The 270p animated GIF export of a clip (flow-captures.md §8); the /gif/ path is the sim's [U].
    if (media.kind !== 'video') return sendText(res, 404, 'Not Found');
    body = makeGif(media.aspectIndex === 1 ? 152 : 480, media.aspectIndex === 1 ? 270 : 270, media.id);
    type = 'image/gif';
  } else {
    ({ bytes: body, type } = imageFor(state, media));
  }
  sendMedia(state, req, res, { owner: media.owner, body, type });
}

function sendMedia(state: SimState, req: Req, res: Res, media: { owner: string; body: Buffer; type: string }): void {
  const { owner, body, type } = media;
  res.writeHead(200, {
    'content-type': type,
    'content-length': String(body.length),
    'cache-control': 'private, max-age=21600',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  if (state.failures.take(owner, 'dropped_download') !== null) {
    res.write(body.subarray(0, Math.floor(body.length / 3)));
    setTimeout(() => res.destroy(), 20);
    return;
  }
  res.end(body);
}

/** `*.googlevideo.com/videoplayback/<mediaId>?…`: where a video tile's `/asb/…` redirect lands (flow-captures.md §2). */
export function handleGooglevideo(state: SimState, req: Req, res: Res, url: URL): void {
  res.setHeader('access-control-allow-origin', '*');
  const match = /^\/videoplayback\/([0-9a-f-]+(?:_upsampled)?)$/.exec(url.pathname);
  if (match === null) return sendText(res, 404, 'Not Found');
  const check = checkSignedUrl(state, url);
  if (check !== 'ok') return sendText(res, 403, check === 'expired' ? 'Expired' : 'Forbidden');
  const media = resolveVideo(state, match[1] ?? '');
  if (media === undefined || media.kind !== 'video') return sendText(res, 404, 'Not Found');
  sendMedia(state, req, res, {
    owner: media.owner,
    body: mp4For(state, media, media.id.endsWith('_upsampled')),
    type: 'video/mp4',
  });
}
