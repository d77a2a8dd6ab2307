import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Res } from '../net/http.js';
import { sendText } from '../net/http.js';

const ASSET_DIR = fileURLToPath(new URL('../../assets/flow/', import.meta.url));
const TYPES: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };
const cache = new Map<string, Buffer>();

/** The page's own JavaScript and CSS (plain files under assets/flow). */
export async function sendAsset(res: Res, name: string): Promise<void> {
  const m = /^([a-zA-Z0-9]+)\.(js|css)$/.exec(name);
  if (m === null) return sendText(res, 404, 'Not Found');
  let body = cache.get(name);
  if (body === undefined) {
    try {
      body = await readFile(`${ASSET_DIR}${name}`);
    } catch {
      return sendText(res, 404, 'Not Found');
    }
    cache.set(name, body);
  }
  res.writeHead(200, { 'content-type': TYPES[m[2] ?? 'js'] ?? 'text/plain', 'cache-control': 'no-cache' });
  res.end(body);
}
