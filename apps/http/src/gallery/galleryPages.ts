import type { OperationOutput } from '@gflow/core';
import { type SafeHtml, hrefOf, html } from './html.js';

type Projects = OperationOutput<'galleryProjects'>['projects'];
type MediaPage = OperationOutput<'galleryMedia'>;
type MediaDetail = OperationOutput<'galleryMediaDetail'>['media'];
type Failures = OperationOutput<'galleryFailures'>['failures'];
type Tasks = OperationOutput<'galleryTasks'>['tasks'];
type Movies = OperationOutput<'galleryMovies'>;
type MovieDetail = OperationOutput<'galleryMovieDetail'>['movie'];

export type GallerySection = 'projects' | 'media' | 'movies' | 'failures' | 'tasks';

export interface PageChrome {
  /** The notice under the header (sandbox, no-spend). */
  readonly note?: string | undefined;
  readonly flash?: { readonly text: string; readonly bad?: boolean } | undefined;
}

/** The whole document: header, navigation, the page. The stylesheet and script are our own files (the CSP allows nothing inline). */
export function layout(title: string, section: GallerySection | undefined, chrome: PageChrome, body: SafeHtml): string {
  const nav = (href: string, label: string, key: GallerySection) =>
    html`<a href="${href}" ${section === key ? html`aria-current="page"` : ''}>${label}</a>`;
  return `<!doctype html>${html`<html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="referrer" content="same-origin" />
      <title>${title} · gflow gallery</title>
      <link rel="stylesheet" href="/gallery/assets/gallery.css" />
      <script src="/gallery/assets/gallery.js" defer></script>
    </head>
    <body>
      <header class="top">
        <a class="brand" href="/">gflow gallery</a>
        <nav>
          ${nav('/', 'Projects', 'projects')}${nav('/media', 'All media', 'media')}${nav('/movies', 'Movies', 'movies')}${nav('/failures', 'Failures', 'failures')}${nav('/tasks', 'Running', 'tasks')}
        </nav>
        ${chrome.note ? html`<span class="note">${chrome.note}</span>` : ''}
      </header>
      <main>
        ${chrome.flash ? html`<div class="flash ${chrome.flash.bad ? 'bad' : ''}" role="status">${chrome.flash.text}</div>` : ''}
        ${body}
      </main>
    </body>
  </html>`}`;
}

const when = (iso: string | null | undefined): string => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '—');

export function projectsPage(projects: Projects): SafeHtml {
  if (projects.length === 0)
    return html`<h1>Projects</h1>
      <p class="empty">
        No project is catalogued yet. Generate something (try <code>gflow image t2i "a red fox" --sandbox</code>), then
        come back.
      </p>`;
  return html`<h1>Projects <span class="muted">(${projects.length})</span></h1>
    <div class="cards">
      ${projects.map(
        (p) =>
          html`<article class="card" data-project-id="${p.project_id}">
            <a class="cover" href="${hrefOf(`/projects/${encodeURIComponent(p.project_id)}`, { profile: p.profile })}"
              >${
                p.cover_media_id
                  ? html`<img src="/thumbs/${encodeURIComponent(p.cover_media_id)}" alt="" loading="lazy" />`
                  : html`<span class="muted">no local file</span>`
              }</a
            >
            <div class="body">
              <a href="${hrefOf(`/projects/${encodeURIComponent(p.project_id)}`, { profile: p.profile })}"
                ><strong>${p.title ?? 'Untitled project'}</strong></a
              >
              <span class="muted">${p.image_count} images · ${p.video_count} videos · profile ${p.profile}</span>
              <span class="muted">last activity ${when(p.last_activity)}</span>
              <a href="${p.flow_url}" target="_blank" rel="noopener noreferrer">Open in Flow ↗</a>
            </div>
          </article>`,
      )}
    </div>`;
}

export interface GridQuery {
  readonly project?: string | undefined;
  readonly kind?: string | undefined;
  readonly model?: string | undefined;
  readonly profile?: string | undefined;
  readonly since?: string | undefined;
  readonly until?: string | undefined;
  readonly q?: string | undefined;
}

export function mediaGridPage(title: string, action: string, query: GridQuery, page: MediaPage): SafeHtml {
  const option = (value: string, label: string, current: string | undefined) =>
    html`<option value="${value}" ${current === value ? html`selected` : ''}>${label}</option>`;
  return html`<h1>
      ${title}
      <span class="muted" data-count="${page.items.length}"
        >(${page.matched} match${page.matched === 1 ? '' : 'es'})</span
      >
    </h1>
    <form class="filters" method="get" action="${action}">
      <label
        >Kind<select name="kind">
          ${option('', 'any', query.kind ?? '')}${option('image', 'images', query.kind)}${option('video', 'videos', query.kind)}
        </select></label
      >
      <label
        >Model<select name="model">
          ${option('', 'any', query.model ?? '')}${page.facets.models.map((m) => option(m, m, query.model))}
        </select></label
      >
      <label
        >Profile<select name="profile">
          ${option('', 'any', query.profile ?? '')}${page.facets.profiles.map((p) => option(p, p, query.profile))}
        </select></label
      >
      <label>From<input type="date" name="since" value="${query.since ?? ''}" /></label>
      <label>To<input type="date" name="until" value="${query.until ?? ''}" /></label>
      <label>Prompt contains<input type="search" name="q" value="${query.q ?? ''}" placeholder="words" /></label>
      <button type="submit">Filter</button> <a class="button" href="${action}">Clear</a>
    </form>
    ${page.complete ? '' : html`<p class="muted">Only the newest catalogued media of each kind are searched.</p>`}
    ${
      page.items.length === 0
        ? html`<p class="empty">Nothing matches.</p>`
        : html`<div class="grid">
            ${page.items.map(
              (item) =>
                html`<article class="tile" data-media-id="${item.media_id}" data-kind="${item.kind}">
                  <a
                    class="thumb"
                    href="${hrefOf(`/media/${encodeURIComponent(item.media_id)}`, { profile: item.profile })}"
                    >${
                      item.has_file
                        ? html`<img
                            src="/thumbs/${encodeURIComponent(item.media_id)}"
                            alt="${item.prompt ?? item.media_id}"
                            loading="lazy"
                          />`
                        : html`<span class="missing">not downloaded</span>`
                    }</a
                  >
                  ${item.kind === 'video' ? html`<span class="badge">▶ video${item.duration_seconds ? html` · ${item.duration_seconds}s` : ''}</span>` : ''}
                  <div class="meta">
                    <div class="prompt">${item.prompt ?? html`<span class="muted">(no prompt recorded)</span>`}</div>
                    <div class="muted">${item.model ?? 'model ?'} · ${when(item.created_at)}</div>
                  </div>
                </article>`,
            )}
          </div>`
    }`;
}

const linkedList = (items: ReadonlyArray<{ media_id: string; kind: string; role: string; has_file: boolean }>) =>
  items.length === 0
    ? html`<span class="muted">none</span>`
    : html`${items.map(
        (l) =>
          html`<div>
            <a href="/media/${encodeURIComponent(l.media_id)}">${l.kind} ${l.media_id}</a>
            <span class="pill">${l.role}</span>${l.has_file ? '' : html` <span class="pill warn">not downloaded</span>`}
          </div>`,
      )}`;

export interface MediaActions {
  /** downloadMedia is offered (it spends nothing). */
  readonly canDownload: boolean;
}

export function mediaPage(media: MediaDetail, actions: MediaActions): SafeHtml {
  const servable = media.files.find((file) => file.servable && file.exists);
  const id = encodeURIComponent(media.media_id);
  const stage = servable
    ? media.kind === 'video'
      ? html`<video
          src="/files/${id}"
          poster="/thumbs/${id}"
          controls
          autoplay
          muted
          loop
          playsinline
          preload="auto"
          data-media-id="${media.media_id}"
        ></video>`
      : html`<img
          src="/files/${id}"
          alt="${media.operation?.prompt ?? media.media_id}"
          data-media-id="${media.media_id}"
        />`
    : html`<div class="missing">
        ${
          media.files.length === 0
            ? 'No local file: Flow made it, but it was never downloaded. “Download again” fetches it (no credits).'
            : 'The recorded file is missing, or outside the output directory (the gallery serves only files there).'
        }
      </div>`;
  const op = media.operation;
  const params = Object.entries(media.parameters);
  return html`<h1>${media.kind === 'video' ? 'Video' : 'Image'} <code>${media.media_id}</code></h1>
    <div class="viewer">
      <div>
        <div class="stage">${stage}</div>
        <div class="actions">
          <button type="button" data-copy="${media.media_id}">Copy media id</button>
          ${media.recreate_command ? html`<button type="button" data-copy="${media.recreate_command}">Copy command to make it again</button>` : ''}
          ${
            actions.canDownload
              ? html`<form method="post" action="/media/${id}/download">
                  <input type="hidden" name="profile" value="${media.profile}" /><button type="submit">
                    Download again
                  </button>
                </form>`
              : ''
          }
          ${media.flow_url ? html`<a class="button" href="${media.flow_url}" target="_blank" rel="noopener noreferrer">Open in Flow ↗</a>` : ''}
        </div>
        ${
          op
            ? html`<h2>Prompt</h2>
                <p class="prompt-text">
                  ${op.prompt ?? html`<span class="muted">${op.prompt_redacted ? 'redacted (history_prompts = redacted)' : 'not recorded'}</span>`}
                </p>
                ${
                  op.expanded_prompt
                    ? html`<h2>Prompt as sent</h2>
                        <p>${op.expanded_prompt}</p>`
                    : ''
                }`
            : ''
        }
        ${
          media.recreate_command
            ? html`<h2>Make it again</h2>
                <pre class="cmd">${media.recreate_command}</pre>
                <p class="muted">A new generation: it spends what the first one did.</p>`
            : ''
        }
        <h2>Fetch the file again</h2>
        <pre class="cmd">${media.download_command}</pre>
        <p class="muted">Spends nothing.</p>
      </div>
      <div>
        <h2>Parameters</h2>
        <table class="kv">
          <tr>
            <th>Profile</th>
            <td>
              ${media.profile}${media.other_profiles.length ? html` <span class="muted">(also in ${media.other_profiles.join(', ')})</span>` : ''}
            </td>
          </tr>
          <tr>
            <th>Project</th>
            <td>
              ${media.project_id ? html`<a href="/projects/${encodeURIComponent(media.project_id)}">${media.project_title ?? media.project_id}</a>` : '—'}
            </td>
          </tr>
          <tr>
            <th>Made</th>
            <td>${when(media.created_at)}</td>
          </tr>
          <tr>
            <th>Status</th>
            <td>${media.status}</td>
          </tr>
          ${params.map(
            ([key, value]) =>
              html`<tr>
                <th>${key}</th>
                <td>${typeof value === 'string' ? value : JSON.stringify(value)}</td>
              </tr>`,
          )}
        </table>
        <h2>Local files</h2>
        ${
          media.files.length === 0
            ? html`<p class="muted">none recorded</p>`
            : html`<table class="kv">
                ${media.files.map(
                  (f) =>
                    html`<tr>
                      <td>
                        <code>${f.path}</code><br /><span class="muted"
                          >${f.bytes}
                          bytes${f.exists ? '' : ' · missing'}${f.servable ? '' : ' · outside the output directory'}</span
                        >
                      </td>
                    </tr>`,
                )}
              </table>`
        }
        <h2>Made by</h2>
        ${
          op
            ? html`<table class="kv">
                <tr>
                  <th>Operation</th>
                  <td>#${op.operation_id} ${op.command}${op.mode ? html` (${op.mode})` : ''}</td>
                </tr>
                <tr>
                  <th>Status</th>
                  <td>${op.status}</td>
                </tr>
                <tr>
                  <th>From</th>
                  <td>${op.surface ?? '—'}</td>
                </tr>
                <tr>
                  <th>Model</th>
                  <td>${op.model ?? '—'}</td>
                </tr>
                <tr>
                  <th>Started</th>
                  <td>${when(op.started_at)}</td>
                </tr>
                <tr>
                  <th>Finished</th>
                  <td>${when(op.completed_at)}</td>
                </tr>
                <tr>
                  <th>Credits</th>
                  <td>${op.credits_spent ?? op.credits_quoted ?? '—'}</td>
                </tr>
                ${
                  op.task_id
                    ? html`<tr>
                        <th>Task</th>
                        <td><code>${op.task_id}</code></td>
                      </tr>`
                    : ''
                }
                <tr>
                  <th>Inputs</th>
                  <td>${linkedList(op.inputs)}</td>
                </tr>
                ${
                  op.siblings.length
                    ? html`<tr>
                        <th>Made with it</th>
                        <td>${linkedList(op.siblings)}</td>
                      </tr>`
                    : ''
                }
              </table>`
            : html`<p class="muted">No operation recorded (an upload, or a project sync).</p>`
        }
        <h2>Made from it</h2>
        ${
          media.derived.length === 0
            ? html`<p class="muted">nothing yet</p>`
            : html`${media.derived.map(
                (d) =>
                  html`<div class="derived">
                    <strong>#${d.operation_id} ${d.command}${d.mode ? html` (${d.mode})` : ''}</strong>
                    <span class="pill">${d.role}</span> <span class="pill">${d.status}</span>${linkedList(d.outputs)}
                  </div>`,
              )}`
        }
        ${
          media.chains.length
            ? html`<h2>Chains</h2>
                ${media.chains.map((c) => html`<div><code>${c.chain_id}</code> <span class="pill">${c.status}</span> <span class="muted">gflow video chain-status ${c.chain_id}</span></div>`)}`
            : ''
        }
      </div>
    </div>`;
}

export function failuresPage(failures: Failures): SafeHtml {
  if (failures.length === 0)
    return html`<h1>Failures</h1>
      <p class="empty">No failed operation is recorded.</p>`;
  return html`<h1>Failures <span class="muted">(${failures.length})</span></h1>
    ${failures.map(
      (f) =>
        html`<section class="failure ${f.not_downloaded.length ? 'billed' : ''}" data-operation-id="${f.operation_id}">
          <h3>
            ${f.title}
            <span class="pill">${f.code ?? 'unknown'}</span>
            ${f.retryable ? html`<span class="pill">retryable</span>` : html`<span class="pill">not retryable</span>`}
          </h3>
          <div class="muted">
            #${f.operation_id} ${f.command}${f.mode ? html` (${f.mode})` : ''} · ${f.profile} ·
            ${when(f.started_at)}${f.model ? html` · ${f.model}` : ''}
          </div>
          ${f.prompt ? html`<div>Prompt: <span class="prompt-text">${f.prompt}</span></div>` : ''}
          ${f.detail ? html`<p class="detail">${f.detail}</p>` : ''}
          ${f.hint ? html`<p class="hint">${f.hint}</p>` : ''}
          ${f.incident_id ? html`<div>Incident <code>${f.incident_id}</code></div>` : ''}
          ${
            f.not_downloaded.length
              ? html`<div>
                  <strong>Billed but not downloaded:</strong> ${f.not_downloaded.map(
                    (n) =>
                      html`<pre class="cmd">${n.recovery_command}</pre>
                        <button type="button" data-copy="${n.recovery_command}">Copy recovery command</button>`,
                  )}
                </div>`
              : ''
          }
          ${f.project_id ? html`<div><a href="/projects/${encodeURIComponent(f.project_id)}">Project ${f.project_id}</a></div>` : ''}
        </section>`,
    )}`;
}

export function tasksPage(tasks: Tasks): SafeHtml {
  const rows = tasks.length
    ? tasks.map(
        (t) =>
          html`<tr data-task-id="${t.task_id}">
            <td>${t.task_id}</td>
            <td>${t.profile}</td>
            <td>${t.task_type}</td>
            <td>${t.status}</td>
            <td>${t.phase ?? ''}</td>
            <td>${t.may_have_spent ? 'yes' : 'no'}</td>
            <td>${t.prompt ?? ''}</td>
            <td>${t.updated_at}</td>
          </tr>`,
      )
    : html`<tr>
        <td colspan="8" class="empty">Nothing is queued or running.</td>
      </tr>`;
  return html`<h1>Running tasks <span class="muted" data-live-status>loading…</span></h1>
    <table class="list" data-live-tasks>
      <thead>
        <tr>
          <th>Task</th>
          <th>Profile</th>
          <th>Type</th>
          <th>Status</th>
          <th>Phase</th>
          <th>May have spent</th>
          <th>Prompt</th>
          <th>Updated</th>
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
    <p class="muted">Every process's tasks (the catalog's queue), updated live.</p>`;
}

const seconds = (value: number | null | undefined): string => (typeof value === 'number' ? `${value} s` : '—');

export function moviesPage(page: Movies): SafeHtml {
  if (page.items.length === 0)
    return html`<h1>Movies</h1>
      <p class="empty">
        No movie is catalogued yet. Make one from a storyboard (try <code>gflow movie template > story.yaml</code>, then
        <code>gflow movie run story.yaml --sandbox</code>).
      </p>`;
  return html`<h1>Movies <span class="muted" data-count="${page.items.length}">(${page.matched})</span></h1>
    ${page.complete ? '' : html`<p class="muted">Only the newest catalogued movies are listed.</p>`}
    <table class="list">
      <thead>
        <tr>
          <th>Title</th>
          <th>Status</th>
          <th>Clips</th>
          <th>Length</th>
          <th>Created</th>
          <th>Profile</th>
        </tr>
      </thead>
      <tbody>
        ${page.items.map(
          (m) =>
            html`<tr data-movie-id="${m.movie_id}">
              <td><a href="/movies/${encodeURIComponent(m.movie_id)}">${m.title}</a></td>
              <td><span class="pill">${m.status}</span></td>
              <td>${m.clip_count}</td>
              <td>${seconds(m.seconds)}</td>
              <td>${when(m.created_at)}</td>
              <td>${m.profile}</td>
            </tr>`,
        )}
      </tbody>
    </table>`;
}

const mediaLink = (mediaId: string | null) =>
  mediaId ? html`<a href="/media/${encodeURIComponent(mediaId)}"><code>${mediaId}</code></a>` : '—';

/** The movie playing, or why there is no player (still running, failed, its file gone). */
function movieStage(movie: MovieDetail): SafeHtml {
  const id = encodeURIComponent(movie.movie_id);
  if (movie.playable)
    return html`<video
      src="/movies/${id}/file"
      controls
      playsinline
      preload="metadata"
      data-movie-id="${movie.movie_id}"
    ></video>`;
  const why =
    movie.status !== 'completed'
      ? `This movie is ${movie.status}: it plays here once every clip is made and stitched.`
      : movie.output === null
        ? 'This movie was made as clips only (no stitched file).'
        : 'The stitched file is missing, changed, or no longer where the movie was written.';
  return html`<div class="missing">${why}</div>`;
}

function movieSteps(movie: MovieDetail): SafeHtml {
  return html`<table class="list" data-movie-steps>
    <thead>
      <tr>
        <th>Scene</th>
        <th>Step</th>
        <th>Mode</th>
        <th>Prompt</th>
        <th>Media</th>
        <th>Status</th>
      </tr>
    </thead>
    <tbody>
      ${movie.steps.map(
        (s) =>
          html`<tr data-step="${s.index}" data-status="${s.status}">
            <td>${s.scene + 1}</td>
            <td>${s.index + 1}</td>
            <td>${s.mode}</td>
            <td class="prompt-text">${s.prompt}</td>
            <td>${mediaLink(s.flow_media_id)}</td>
            <td>
              <span class="pill">${s.status}</span
              >${s.error_title ? html` <strong class="error">${s.error_title}</strong>` : ''}
              ${s.error_detail ? html`<div class="detail">${s.error_detail}</div>` : ''}
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

function movieClips(movie: MovieDetail): SafeHtml {
  if (movie.clips.length === 0) return html`<p class="muted">No stitched clips yet.</p>`;
  return html`<table class="list" data-movie-clips>
    <thead>
      <tr>
        <th>Scene</th>
        <th>Media</th>
        <th>Prompt</th>
        <th>In</th>
        <th>Out</th>
      </tr>
    </thead>
    <tbody>
      ${movie.clips.map(
        (c) =>
          html`<tr>
            <td>${c.scene + 1}</td>
            <td>${mediaLink(c.media_id)}</td>
            <td class="prompt-text">${c.prompt ?? ''}</td>
            <td>${seconds(c.in_seconds)}</td>
            <td>${seconds(c.out_seconds)}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

export function moviePage(movie: MovieDetail): SafeHtml {
  const id = encodeURIComponent(movie.movie_id);
  return html`<h1>${movie.title} <span class="pill">${movie.status}</span></h1>
    <div class="stage movie">${movieStage(movie)}</div>
    <div class="actions">
      <button type="button" data-copy="${movie.movie_id}">Copy movie id</button>
      ${movie.timeline_servable ? html`<a class="button" href="/movies/${id}/timeline" download>Download the timeline (.otio)</a>` : ''}
      ${movie.flow_project_id ? html`<a class="button" href="/projects/${encodeURIComponent(movie.flow_project_id)}">Its project</a>` : ''}
    </div>
    ${movie.error_title ? html`<p class="detail">Stopped: ${movie.error_title}</p>` : ''}
    <table class="kv">
      <tr>
        <th>Movie id</th>
        <td><code>${movie.movie_id}</code></td>
      </tr>
      <tr>
        <th>Profile</th>
        <td>${movie.profile}</td>
      </tr>
      <tr>
        <th>Length</th>
        <td>${movie.output ? html`${seconds(movie.output.seconds)} · ${movie.output.frames} frames` : '—'}</td>
      </tr>
      <tr>
        <th>File</th>
        <td>${movie.output ? html`<code>${movie.output.path}</code>` : '—'}</td>
      </tr>
      <tr>
        <th>Created</th>
        <td>${when(movie.created_at)}</td>
      </tr>
      <tr>
        <th>Updated</th>
        <td>${when(movie.updated_at)}</td>
      </tr>
    </table>
    <h2>Scenes</h2>
    ${movieSteps(movie)}
    <h2>Clips in the movie</h2>
    ${movieClips(movie)}
    <h2>From the terminal</h2>
    <pre class="cmd">gflow movie status ${movie.movie_id}</pre>
    ${
      movie.status === 'completed' || movie.status === 'running' || movie.status === 'pending'
        ? ''
        : html`<pre class="cmd">gflow movie run --resume-from ${movie.movie_id}</pre>
            <p class="muted">Continues it: finished clips are not made (or billed) again.</p>`
    }`;
}

export function messagePage(title: string, text: string, detail?: SafeHtml): SafeHtml {
  return html`<h1>${title}</h1>
    <p>${text}</p>
    ${detail ?? ''}`;
}
