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
  moviePage,
  moviesPage,
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

/** Serves a file the catalog recorded, with byte ranges (video seeking); shown inline unless a download's name is given. */
function sendFile(
  c: Context,
  file: { path: string; bytes: number; mimeType: string },
  cacheControl: string,
  download?: string,
): Response {
  const headers: Record<string, string> = {
    'Content-Type': file.mimeType,
    'Accept-Ranges': 'bytes',
    'Cache-Control': cacheControl,
    'Content-Disposition': download === undefined ? 'inline' : `attachment; filename="${download}"`,
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

/** How a gallery route answers: a page in the gallery's layout, or the failure as a page. */
interface GalleryRender {
  page(c: Context, title: string, body: SafeHtml, view?: PageView): Response | Promise<Response>;
  failure(c: Context, error: unknown): Response | Promise<Response>;
}

interface PageView {
  readonly section?: GallerySection;
  readonly status?: number;
  readonly flash?: PageChrome['flash'];
}

function renderOf(gflow: GflowLike): GalleryRender {
  const page = (c: Context, title: string, body: SafeHtml, view: PageView = {}) =>
    c.html(layout(title, view.section, chromeOf(gflow, view.flash), body), (view.status ?? 200) as 200);
  const failure = (c: Context, error: unknown) => {
    const gflowError = toGflowError(error);
    const notFound = gflowError.code === 'reference-not-found' || gflowError.code === 'bad-parameter';
    const status = notFound ? 404 : httpStatusForCode(gflowError.code);
    if (status >= 500) gflow.logger.warn('http.gallery.error', { code: gflowError.code, detail: gflowError.detail });
    return page(c, gflowError.title, messagePage(gflowError.title, gflowError.detail), { status });
  };
  return { page, failure };
}

/** The gallery's own stylesheet and script, and the health answer `gflow gallery` looks for. */
function mountAssets<E extends Env>(app: Hono<E>, options: GalleryOptions): void {
  const cached = 'private, max-age=300';
  app.get('/gallery/assets/gallery.css', (c) =>
    c.body(GALLERY_CSS, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': cached }),
  );
  app.get('/gallery/assets/gallery.js', (c) =>
    c.body(GALLERY_JS, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': cached }),
  );
  app.get('/gallery/health', (c) =>
    c.json({
      service: 'gflow',
      gallery: true,
      home_id: homeIdOf(options.gflow.layout.home),
      token: options.token !== undefined,
    }),
  );
}

/** One-time login codes, for a caller that holds the token (`gflow gallery`); never for a cookie. */
function mountLogin<E extends Env>(app: Hono<E>, options: GalleryOptions, render: GalleryRender): void {
  const { sessions } = options;
  app.post('/gallery/login', (c) => {
    const presented = bearerTokenOf(c.req.header('authorization'));
    if (!options.token) return c.json({ error: 'This daemon has no token: open the gallery directly.' }, 400);
    if (presented === undefined || !tokensMatch(presented, options.token))
      return c.json({ error: 'Unauthorized' }, 401);
    return c.json({ login_path: loginPathOf(sessions.mintCode()), expires_in_s: LOGIN_CODE_TTL_MS / 1000 });
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
      return render.page(c, 'Login link', body, { status: options.token ? 401 : 400 });
    }
    const cookie = { httpOnly: true, sameSite: 'Strict', path: '/', maxAge: SESSION_TTL_MS / 1000 } as const;
    setCookie(c, SESSION_COOKIE, session, cookie);
    return c.redirect('/', 303);
  });
}

/** The grid's filters, as the query string gives them. */
function gridQueryOf(c: Context, project: string | undefined): GridQuery {
  const kind = c.req.query('kind');
  return {
    project,
    kind: kind === 'image' || kind === 'video' ? kind : undefined,
    model: text(c.req.query('model')),
    profile: text(c.req.query('profile')),
    since: dateParam(c.req.query('since')),
    until: dateParam(c.req.query('until')),
    q: text(c.req.query('q')),
  };
}

/** A media grid: one project's, or every project's, filtered. */
async function gridPage(gflow: GflowLike, render: GalleryRender, c: Context, project: string | undefined) {
  const query = gridQueryOf(c, project);
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
      title = projects.find((p) => p.project_id === project)?.title ?? `Project ${project}`;
    }
    const action = project ? `/projects/${encodeURIComponent(project)}` : '/media';
    const section = project ? 'projects' : 'media';
    return render.page(c, title, mediaGridPage(title, action, query, result), { section });
  } catch (error) {
    return render.failure(c, error);
  }
}

/** The media page, with a flash line when one is given. */
async function mediaDetail(gflow: GflowLike, render: GalleryRender, c: Context, flash?: PageChrome['flash']) {
  const profile = text(c.req.query('profile'));
  const id = c.req.param('id') as string;
  const { media } = await gflow.run('galleryMediaDetail', { media_id: id, ...(profile ? { profile } : {}) });
  const canDownload = gflow.operation('downloadMedia') !== undefined;
  const title = `${media.kind} ${media.media_id}`;
  return render.page(c, title, mediaPage(media, { canDownload }), { section: 'media', flash });
}

/** Projects, the grids, the media page, failures and running tasks: reads only. */
function mountPages<E extends Env>(app: Hono<E>, gflow: GflowLike, render: GalleryRender): void {
  const read =
    <T>(run: () => Promise<T>, show: (c: Context, value: T) => Response | Promise<Response>) =>
    async (c: Context) => {
      try {
        return await show(c, await run());
      } catch (error) {
        return render.failure(c, error);
      }
    };
  app.get(
    '/',
    read(
      () => gflow.run('galleryProjects', {}),
      (c, { projects }) => render.page(c, 'Projects', projectsPage(projects), { section: 'projects' }),
    ),
  );
  app.get('/media', (c) => gridPage(gflow, render, c, undefined));
  app.get('/projects/:id', (c) => gridPage(gflow, render, c, c.req.param('id')));
  app.get('/media/:id', async (c) => {
    const done = DONE_MESSAGES[c.req.query('done') ?? ''];
    return mediaDetail(gflow, render, c, done ? { text: done } : undefined).catch((error: unknown) =>
      render.failure(c, error),
    );
  });
  app.get(
    '/failures',
    read(
      () => gflow.run('galleryFailures', {}),
      (c, { failures }) => render.page(c, 'Failures', failuresPage(failures), { section: 'failures' }),
    ),
  );
  app.get(
    '/tasks',
    read(
      () => gflow.run('galleryTasks', {}),
      (c, { tasks }) => render.page(c, 'Running', tasksPage(tasks), { section: 'tasks' }),
    ),
  );
}

/** Spend-free recovery: fetch the file again from Flow (the existing downloadMedia operation). */
function mountDownloadAgain<E extends Env>(app: Hono<E>, gflow: GflowLike, render: GalleryRender): void {
  app.post('/media/:id/download', async (c) => {
    const mediaId = c.req.param('id');
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const profile = typeof form['profile'] === 'string' && form['profile'] !== '' ? form['profile'] : undefined;
    try {
      const input = { media_id: mediaId, ...(profile ? { profile } : {}) };
      await gflow.run('downloadMedia', input, { signal: c.req.raw.signal });
      return c.redirect(`/media/${encodeURIComponent(mediaId)}?done=download`, 303);
    } catch (error) {
      const e = toGflowError(error);
      const flash = { text: `${e.title}: ${e.detail} ${e.remediationHint ?? ''}`, bad: true };
      return mediaDetail(gflow, render, c, flash).catch((again: unknown) => render.failure(c, again));
    }
  });
}

/** The running tasks as they change, over SSE (the catalog's queue, so every process's tasks show). */
function mountTaskEvents<E extends Env>(app: Hono<E>, gflow: GflowLike): void {
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
}

/** The files and thumbnails of catalogued media, by media id only. */
function mountFiles<E extends Env>(app: Hono<E>, gflow: GflowLike): void {
  app.get('/files/:id', async (c) => {
    const answer = await gflow.run('galleryFile', { media_id: c.req.param('id').slice(0, 256) }).catch(() => undefined);
    if (!answer?.found || !answer.path || answer.bytes === undefined || !answer.mime_type)
      return c.text('No catalogued file for this media id inside the output directory.', 404);
    return sendFile(c, { path: answer.path, bytes: answer.bytes, mimeType: answer.mime_type }, 'private, max-age=300');
  });
  app.get('/thumbs/:id', async (c) => {
    const mediaId = c.req.param('id').slice(0, 256);
    const placeholder = (status: 200 | 404) =>
      c.body(PLACEHOLDER_SVG, status, { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'no-store' });
    try {
      const answer = await gflow.run('galleryThumbnail', { media_id: mediaId });
      if (!answer.found || !answer.path) return placeholder(404);
      const bytes = fs.statSync(answer.path).size;
      return sendFile(c, { path: answer.path, bytes, mimeType: 'image/jpeg' }, 'private, max-age=86400');
    } catch (error) {
      gflow.logger.info('http.gallery.thumbnail_failed', { media_id: mediaId, error: toGflowError(error).detail });
      return placeholder(200);
    }
  });
}

/** The movies: their list, a movie's page, and its stitched file and timeline, by movie id only. */
function mountMovies<E extends Env>(app: Hono<E>, gflow: GflowLike, render: GalleryRender): void {
  const show = (c: Context, run: () => Promise<Response>) => run().catch((error: unknown) => render.failure(c, error));
  app.get('/movies', (c) =>
    show(c, async () =>
      render.page(c, 'Movies', moviesPage(await gflow.run('galleryMovies', {})), { section: 'movies' }),
    ),
  );
  app.get('/movies/:id', (c) =>
    show(c, async () => {
      const { movie } = await gflow.run('galleryMovieDetail', { movie_id: c.req.param('id') });
      return render.page(c, movie.title, moviePage(movie), { section: 'movies' });
    }),
  );
  const part = (name: 'movie' | 'timeline') => async (c: Context) => {
    const movieId = c.req.param('id') ?? '';
    const answer = await gflow.run('galleryMovieFile', { movie_id: movieId, part: name }).catch(() => undefined);
    if (!answer?.found || !answer.path || answer.bytes === undefined || !answer.mime_type)
      return c.text(`No ${name === 'movie' ? 'stitched movie' : 'timeline'} of a finished movie for this id.`, 404);
    const file = { path: answer.path, bytes: answer.bytes, mimeType: answer.mime_type };
    return sendFile(c, file, 'private, max-age=300', name === 'timeline' ? `${movieId}.otio` : undefined);
  };
  app.get('/movies/:id/file', part('movie'));
  app.get('/movies/:id/timeline', part('timeline'));
}

/**
 * Mounts the gallery on the daemon's guarded app (the Host/Origin guard and the gate run first):
 * its assets, the browser sign-in for token daemons, the pages (projects at /, the media grids
 * with filters, a media page, the movies, failures, running tasks), the spend-free download again, the tasks'
 * live events, and the files and thumbnails of catalogued media — each part its own small mount.
 */
export function mountGallery<E extends Env>(app: Hono<E>, options: GalleryOptions): void {
  const { gflow } = options;
  const render = renderOf(gflow);
  app.use('*', securityHeaders(options.isMcpPath));
  mountAssets(app, options);
  mountLogin(app, options, render);
  mountPages(app, gflow, render);
  mountMovies(app, gflow, render);
  mountDownloadAgain(app, gflow, render);
  mountTaskEvents(app, gflow);
  mountFiles(app, gflow);
}
