import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { GflowLike } from '@gflow/mcp';
import { httpStatusForCode, toGflowError } from '@gflow/errors';
import type { Context, Env, Hono, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { streamSSE } from 'hono/streaming';
import { BEARER_CHALLENGE, bearerTokenOf, tokensMatch, unauthorized } from '../bearerAuth.js';
import { GALLERY_CSS, GALLERY_JS } from './galleryAssets.js';
import { type GallerySessions, LOGIN_CODE_TTL_MS, SESSION_COOKIE, SESSION_TTL_MS } from './galleryAuth.js';
import {
  type GallerySection,
  type GridQuery,
  type PageChrome,
  failuresPage,
  layout,
  mediaGridPage,
  mediaPage,
  messagePage,
  projectsPage,
  tasksPage,
} from './galleryPages.js';
import type { SafeHtml } from './html.js';

/** How often the running-tasks stream reads the queue. */
export const TASKS_POLL_MS = 1000;
const KEEPALIVE_MS = 15_000;

/** The pages' policy: our own files only, nothing inline, no outside origin, never framed. */
export const GALLERY_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; media-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

export interface GalleryOptions {
  readonly gflow: GflowLike;
  /** GFLOW_DAEMON_TOKEN: browsers then need the session cookie a one-time login URL sets. */
  readonly token?: string | undefined;
  readonly sessions: GallerySessions;
  /** The MCP endpoints sharing the app: the gallery's headers leave their responses alone. */
  readonly isMcpPath: (path: string) => boolean;
}

/** The gallery's one-time login path for a code. */
export function loginPathOf(code: string): string {
  return `/login?code=${encodeURIComponent(code)}`;
}

/** A stable, non-reversible name of the home the daemon serves (`gflow gallery` reuses only a daemon of its own home). */
export function homeIdOf(home: string): string {
  return createHash('sha256').update(home).digest('hex').slice(0, 16);
}

const securityHeaders =
  (isMcpPath: (path: string) => boolean): MiddlewareHandler =>
  async (c, next) => {
    await next();
    if (isMcpPath(c.req.path)) return;
    c.header('X-Content-Type-Options', 'nosniff');
    // same-origin, not no-referrer: under no-referrer a form POST says `Origin: null`, which the
    // Origin guard rightly refuses. Nothing leaves for another origin either way.
    c.header('Referrer-Policy', 'same-origin');
    c.header('X-Frame-Options', 'DENY');
    c.header('Cross-Origin-Resource-Policy', 'same-origin');
    if ((c.res.headers.get('content-type') ?? '').startsWith('text/html')) {
      c.header('Content-Security-Policy', GALLERY_CSP);
      c.header('Cache-Control', 'no-store');
    }
  };

/**
 * The daemon's gate with a gallery: the MCP endpoints take the bearer token only; the gallery's
 * pages take the bearer token or a live session cookie, and /login (which checks its one-time
 * code itself). Whatever is refused learns nothing else.
 */
export function daemonGate(
  token: string,
  sessions: GallerySessions,
  isMcpPath: (path: string) => boolean,
): MiddlewareHandler {
  return async (c, next) => {
    const presented = bearerTokenOf(c.req.header('authorization'));
    if (presented !== undefined && tokensMatch(presented, token)) return await next();
    const mcp = isMcpPath(c.req.path);
    if (!mcp && (c.req.path === '/login' || sessions.valid(getCookie(c, SESSION_COOKIE)))) return await next();
    if (mcp || c.req.path.startsWith('/gallery/')) return unauthorized(c);
    const body = messagePage(
      'Sign-in needed',
      'This gflow daemon has a token (GFLOW_DAEMON_TOKEN). Open the one-time login URL that `gflow gallery` prints on this machine.',
    );
    return c.html(layout('Sign-in needed', undefined, {}, body), 401, {
      'WWW-Authenticate': BEARER_CHALLENGE,
      'Content-Security-Policy': GALLERY_CSP,
      'Cache-Control': 'no-store',
    });
  };
}

const DONE_MESSAGES: Readonly<Record<string, string>> = {
  download: 'Downloaded again from Flow (no credits spent).',
};

function chromeOf(gflow: GflowLike, flash?: PageChrome['flash']): PageChrome {
  return {
    note: gflow.settings.noSpend
      ? 'no-spend mode: nothing here spends credits'
      : 'local catalog · nothing here spends credits',
    flash,
  };
}

function text(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed.slice(0, 500) : undefined;
}

function dateParam(value: string | undefined): string | undefined {
  return value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;
}

/** Serves a file the catalog recorded, with byte ranges (video seeking). */
function sendFile(c: Context, file: { path: string; bytes: number; mimeType: string }, cacheControl: string): Response {
  const headers: Record<string, string> = {
    'Content-Type': file.mimeType,
    'Accept-Ranges': 'bytes',
    'Cache-Control': cacheControl,
    'Content-Disposition': 'inline',
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
  const range = c.req.header('range');
  let start = 0;
  let end = file.bytes - 1;
  let status = 200;
  if (range) {
    const match = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
    const first = match?.[1] ?? '';
    const last = match?.[2] ?? '';
    if (!match || (first === '' && last === '')) {
      return new Response(null, { status: 416, headers: { ...headers, 'Content-Range': `bytes */${file.bytes}` } });
    }
    if (first === '') {
      start = Math.max(0, file.bytes - Number(last));
    } else {
      start = Number(first);
      end = last === '' ? file.bytes - 1 : Math.min(Number(last), file.bytes - 1);
    }
    if (start > end || start >= file.bytes) {
      return new Response(null, { status: 416, headers: { ...headers, 'Content-Range': `bytes */${file.bytes}` } });
    }
    status = 206;
    headers['Content-Range'] = `bytes ${start}-${end}/${file.bytes}`;
  }
  headers['Content-Length'] = String(end - start + 1);
  if (c.req.method === 'HEAD') return new Response(null, { status, headers });
  const stream = Readable.toWeb(fs.createReadStream(file.path, { start, end })) as ReadableStream<Uint8Array>;
  return new Response(stream, { status, headers });
}

/** A placeholder picture for a media whose thumbnail cannot be made (no file, or the browser failed). */
const PLACEHOLDER_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 160 160"><rect width="160" height="160" fill="#1a1d21"/><path d="M50 110l25-30 18 20 12-14 25 24z" fill="#3c4043"/><circle cx="108" cy="58" r="10" fill="#3c4043"/></svg>`;

/**
 * Mounts the gallery on the daemon's guarded app (the Host/Origin guard and the gate run first):
 * projects at /, a media grid with filters, a media page, failures, running tasks (SSE), the
 * files and thumbnails of catalogued media, and the browser sign-in for token daemons.
 */
export function mountGallery<E extends Env>(app: Hono<E>, options: GalleryOptions): void {
  const { gflow, sessions } = options;
  const logger = gflow.logger;
  interface View {
    readonly section?: GallerySection;
    readonly status?: number;
    readonly flash?: PageChrome['flash'];
  }
  const page = (c: Context, title: string, body: SafeHtml, view: View = {}) =>
    c.html(layout(title, view.section, chromeOf(gflow, view.flash), body), (view.status ?? 200) as 200);
  const failure = (c: Context, error: unknown) => {
    const gflowError = toGflowError(error);
    const status =
      gflowError.code === 'reference-not-found' || gflowError.code === 'bad-parameter'
        ? 404
        : httpStatusForCode(gflowError.code);
    if (status >= 500) logger.warn('http.gallery.error', { code: gflowError.code, detail: gflowError.detail });
    return page(c, gflowError.title, messagePage(gflowError.title, gflowError.detail), { status });
  };

  app.use('*', securityHeaders(options.isMcpPath));

  app.get('/gallery/assets/gallery.css', (c) =>
    c.body(GALLERY_CSS, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'private, max-age=300' }),
  );
  app.get('/gallery/assets/gallery.js', (c) =>
    c.body(GALLERY_JS, 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'private, max-age=300',
    }),
  );
  app.get('/gallery/health', (c) =>
    c.json({
      service: 'gflow',
      gallery: true,
      home_id: homeIdOf(gflow.layout.home),
      token: options.token !== undefined,
    }),
  );

  // One-time login codes, for a caller that holds the token (`gflow gallery`); never for a cookie.
  app.post('/gallery/login', (c) => {
    const presented = bearerTokenOf(c.req.header('authorization'));
    if (!options.token) return c.json({ error: 'This daemon has no token: open the gallery directly.' }, 400);
    if (presented === undefined || !tokensMatch(presented, options.token))
      return c.json({ error: 'Unauthorized' }, 401);
    return c.json({
      login_path: loginPathOf(sessions.mintCode()),
      expires_in_s: LOGIN_CODE_TTL_MS / 1000,
    });
  });
  app.get('/login', (c) => {
    const session = options.token ? sessions.redeem(c.req.query('code') ?? '') : undefined;
    if (!session) {
      const body = messagePage(
        'This login link cannot be used',
        options.token
          ? 'It was used already, or it expired. Run `gflow gallery` again for a new one.'
          : 'This daemon has no token: the gallery needs no sign-in.',
      );
      return page(c, 'Login link', body, { status: options.token ? 401 : 400 });
    }
    setCookie(c, SESSION_COOKIE, session, {
      httpOnly: true,
      sameSite: 'Strict',
      path: '/',
      maxAge: SESSION_TTL_MS / 1000,
    });
    return c.redirect('/', 303);
  });

  app.get('/', async (c) => {
    try {
      const { projects } = await gflow.run('galleryProjects', {});
      return page(c, 'Projects', projectsPage(projects), { section: 'projects' });
    } catch (error) {
      return failure(c, error);
    }
  });

  const grid = async (c: Context, project: string | undefined) => {
    const query: GridQuery = {
      project,
      kind: c.req.query('kind') === 'image' || c.req.query('kind') === 'video' ? c.req.query('kind') : undefined,
      model: text(c.req.query('model')),
      profile: text(c.req.query('profile')),
      since: dateParam(c.req.query('since')),
      until: dateParam(c.req.query('until')),
      q: text(c.req.query('q')),
    };
    try {
      const result = await gflow.run('galleryMedia', {
        ...(project ? { project } : {}),
        ...(query.kind ? { kind: query.kind as 'image' | 'video' } : {}),
        ...(query.model ? { model: query.model } : {}),
        ...(query.profile ? { profile: query.profile } : {}),
        ...(query.since ? { since: query.since } : {}),
        ...(query.until ? { until: query.until } : {}),
        ...(query.q ? { text: query.q } : {}),
      });
      let title = 'All media';
      if (project) {
        const { projects } = await gflow.run('galleryProjects', {});
        const known = projects.find((p) => p.project_id === project);
        title = known?.title ?? `Project ${project}`;
      }
      const action = project ? `/projects/${encodeURIComponent(project)}` : '/media';
      return page(c, title, mediaGridPage(title, action, query, result), { section: project ? 'projects' : 'media' });
    } catch (error) {
      return failure(c, error);
    }
  };
  app.get('/media', (c) => grid(c, undefined));
  app.get('/projects/:id', (c) => grid(c, c.req.param('id')));

  app.get('/media/:id', async (c) => {
    try {
      const profile = text(c.req.query('profile'));
      const { media } = await gflow.run('galleryMediaDetail', {
        media_id: c.req.param('id'),
        ...(profile ? { profile } : {}),
      });
      const done = DONE_MESSAGES[c.req.query('done') ?? ''];
      return page(
        c,
        `${media.kind} ${media.media_id}`,
        mediaPage(media, { canDownload: gflow.operation('downloadMedia') !== undefined }),
        { section: 'media', flash: done ? { text: done } : undefined },
      );
    } catch (error) {
      return failure(c, error);
    }
  });

  // Spend-free recovery: fetch the file again from Flow (the existing downloadMedia operation).
  app.post('/media/:id/download', async (c) => {
    const mediaId = c.req.param('id');
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const profile = typeof form['profile'] === 'string' && form['profile'] !== '' ? form['profile'] : undefined;
    try {
      await gflow.run(
        'downloadMedia',
        { media_id: mediaId, ...(profile ? { profile } : {}) },
        { signal: c.req.raw.signal },
      );
      return c.redirect(`/media/${encodeURIComponent(mediaId)}?done=download`, 303);
    } catch (error) {
      const gflowError = toGflowError(error);
      try {
        const { media } = await gflow.run('galleryMediaDetail', { media_id: mediaId, ...(profile ? { profile } : {}) });
        return page(c, `${media.kind} ${media.media_id}`, mediaPage(media, { canDownload: true }), {
          section: 'media',
          flash: { text: `${gflowError.title}: ${gflowError.detail} ${gflowError.remediationHint ?? ''}`, bad: true },
        });
      } catch (again) {
        return failure(c, again);
      }
    }
  });

  app.get('/failures', async (c) => {
    try {
      const { failures } = await gflow.run('galleryFailures', {});
      return page(c, 'Failures', failuresPage(failures), { section: 'failures' });
    } catch (error) {
      return failure(c, error);
    }
  });

  app.get('/tasks', async (c) => {
    try {
      const { tasks } = await gflow.run('galleryTasks', {});
      return page(c, 'Running', tasksPage(tasks), { section: 'tasks' });
    } catch (error) {
      return failure(c, error);
    }
  });
  app.get('/tasks/events', (c) =>
    streamSSE(c, async (stream) => {
      let last = '';
      let quietSince = Date.now();
      const signal = c.req.raw.signal;
      while (!signal.aborted && !stream.aborted) {
        const { tasks } = await gflow.run('galleryTasks', {});
        const data = JSON.stringify(tasks);
        if (data !== last) {
          await stream.writeSSE({ event: 'tasks', data });
          last = data;
          quietSince = Date.now();
        } else if (Date.now() - quietSince > KEEPALIVE_MS) {
          await stream.write(': keep-alive\n\n');
          quietSince = Date.now();
        }
        await stream.sleep(TASKS_POLL_MS);
      }
    }),
  );

  app.get('/files/:id', async (c) => {
    const answer = await gflow.run('galleryFile', { media_id: c.req.param('id').slice(0, 256) }).catch(() => undefined);
    if (!answer?.found || !answer.path || answer.bytes === undefined || !answer.mime_type)
      return c.text('No catalogued file for this media id inside the output directory.', 404);
    return sendFile(c, { path: answer.path, bytes: answer.bytes, mimeType: answer.mime_type }, 'private, max-age=300');
  });

  app.get('/thumbs/:id', async (c) => {
    const mediaId = c.req.param('id').slice(0, 256);
    try {
      const answer = await gflow.run('galleryThumbnail', { media_id: mediaId });
      if (answer.found && answer.path) {
        const bytes = fs.statSync(answer.path).size;
        return sendFile(c, { path: answer.path, bytes, mimeType: 'image/jpeg' }, 'private, max-age=86400');
      }
      return c.body(PLACEHOLDER_SVG, 404, { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'no-store' });
    } catch (error) {
      logger.info('http.gallery.thumbnail_failed', { media_id: mediaId, error: toGflowError(error).detail });
      return c.body(PLACEHOLDER_SVG, 200, { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'no-store' });
    }
  });
}
