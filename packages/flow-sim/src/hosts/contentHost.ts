import type { Req, Res } from '../net/http.js';
import { sendText } from '../net/http.js';
import { checkSignedUrl } from '../media/signedUrl.js';
import { imageFor, mp4For } from '../media/catalogMedia.js';
import { resolveVideo } from '../rpc/videoPoll.js';
import type { SimState } from '../state/simState.js';

/** flow-content.google: signed image/poster JPEGs and MP4s; no cookies needed. */
export function handleContent(state: SimState, req: Req, res: Res, url: URL): void {
  res.setHeader('access-control-allow-origin', '*');
  const match = /^\/(image|video)\/([0-9a-f-]+(?:_upsampled)?)$/.exec(url.pathname);
  if (match === null) return sendText(res, 404, 'Not Found');
  const check = checkSignedUrl(state, url);
  if (check !== 'ok') return sendText(res, 403, check === 'expired' ? 'Expired' : 'Forbidden');
  const media = resolveVideo(state, match[2] ?? '');
  if (media === undefined) return sendText(res, 404, 'Not Found');
  let body: Buffer;
  let type: string;
  if (match[1] === 'video') {
    if (media.kind !== 'video') return sendText(res, 404, 'Not Found');
    body = mp4For(state, media, media.id.endsWith('_upsampled'));
    type = 'video/mp4';
  } else {
    ({ bytes: body, type } = imageFor(state, media));
  }
  res.writeHead(200, { 'content-type': type, 'content-length': String(body.length), 'cache-control': 'private, max-age=21600' });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  if (state.failures.take(media.owner, 'dropped_download') !== null) {
    res.write(body.subarray(0, Math.floor(body.length / 3)));
    setTimeout(() => res.destroy(), 20);
    return;
  }
  res.end(body);
}
