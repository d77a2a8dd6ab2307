import { FAILURE_STATUSES } from '@gflow/core';
import { FLOW_ID } from '@gflow/core/surfaces';

/** How often the view asks the host for a running chain's state (gflow_chain_status). */
export const POLL_MS = 2_000;
/** The most media one result shows (a batch or a chain can name more). */
export const MAX_MEDIA = 12;

/**
 * The view's own code, run in the host's sandboxed iframe after the inlined
 * ext-apps View SDK (which leaves `App` and `PostMessageTransport` in
 * `__gflowExtApps`). Plain browser JavaScript kept as text: the binary's
 * bundler would wrap a serialised TypeScript function's inner functions in
 * helpers the page does not have (see driver/src/pageFunctions.test.ts).
 *
 * Rules it keeps: every value from a result reaches the page through
 * `textContent` (never markup); media bytes come only from the host through
 * `readServerResource` of gflow://media/<id> and are shown from blob: URLs;
 * no file path, file:// URI or remote URL is ever put in the page.
 * test/mcpApp.browser.test.ts runs it in Chromium.
 */
export function resultViewScript(version: string): string {
  const constants = [
    `const VERSION = ${JSON.stringify(version)};`,
    `const FAILURES = ${JSON.stringify(FAILURE_STATUSES)};`,
    `const MEDIA_ID = new RegExp(${JSON.stringify(FLOW_ID.source)});`,
    `const POLL_MS = ${POLL_MS};`,
    `const MAX_MEDIA = ${MAX_MEDIA};`,
  ].join('\n');
  return `${constants}\n${VIEW_BODY}`;
}

const VIEW_BODY = String.raw`
const { App, PostMessageTransport } = __gflowExtApps;
const body = document.getElementById('body');
const promptLine = document.getElementById('prompt');
const app = new App({ name: 'gflow-result', version: VERSION }, {}, { autoResize: true });
const objectUrls = [];
// Each result bumps the generation: slower work (media reads, polls) of an older one stops.
let generation = 0;

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function part(tag, name, text) {
  const node = el(tag, name, text);
  node.dataset.part = name;
  return node;
}

function reset() {
  generation += 1;
  for (const url of objectUrls.splice(0)) URL.revokeObjectURL(url);
  body.replaceChildren();
  return generation;
}

function structuredOf(result) {
  if (!isObject(result)) return undefined;
  if (isObject(result.structuredContent)) return result.structuredContent;
  const first = Array.isArray(result.content) ? result.content.find((c) => isObject(c) && c.type === 'text') : undefined;
  if (first && typeof first.text === 'string') {
    try {
      const parsed = JSON.parse(first.text);
      if (isObject(parsed)) return parsed;
    } catch {
      return { status: result.isError ? 'error' : 'ok', error: result.isError ? { detail: first.text } : undefined, text: first.text };
    }
  }
  return undefined;
}

function render(result) {
  const run = reset();
  const data = structuredOf(result);
  if (!data) {
    body.append(part('p', 'empty', 'The tool returned nothing this view can show.'));
    return;
  }
  const status = typeof data.status === 'string' ? data.status : undefined;
  if (result.isError === true || FAILURES.includes(status)) return renderFailure(data, status);
  if (Array.isArray(data.projects)) return renderProjects(data);
  if ((status === 'pending' || status === 'running') && (typeof data.task_id === 'string' || typeof data.chain_id === 'string'))
    return renderPending(data, run);
  return renderMedia(data, run);
}

function renderFailure(data, status) {
  const error = isObject(data.error) ? data.error : {};
  const box = part('section', 'failure');
  box.setAttribute('role', 'alert');
  box.append(part('h2', 'error-title', error.title || 'The call failed'));
  const meta = [status ? 'status ' + status : '', typeof error.status === 'number' ? 'HTTP ' + error.status : '']
    .filter(Boolean)
    .join(' · ');
  if (meta) box.append(part('p', 'error-status', meta));
  const detail = error.detail || error.message || data.text;
  if (detail) box.append(part('p', 'error-detail', detail));
  if (error.remediation_hint) box.append(part('p', 'error-hint', error.remediation_hint));
  if (typeof error.retryable === 'boolean')
    box.append(part('p', 'error-retryable', error.retryable ? 'Retryable: yes, the same call may succeed later.' : 'Retryable: no.'));
  body.append(box);
}

function renderProjects(data) {
  const projects = data.projects.filter(isObject);
  body.append(part('h2', 'projects-title', projects.length === 1 ? '1 project' : projects.length + ' projects'));
  const list = part('ul', 'projects');
  for (const project of projects) {
    const item = el('li', 'project');
    item.append(el('span', 'project-name', project.title || project.project_id || 'untitled'));
    const counts = [];
    if (typeof project.image_count === 'number') counts.push(project.image_count + ' images');
    if (typeof project.video_count === 'number') counts.push(project.video_count + ' videos');
    if (project.profile) counts.push(project.profile);
    if (counts.length) item.append(el('span', 'muted', ' · ' + counts.join(', ')));
    list.append(item);
  }
  body.append(list);
  if (data.has_more === true) body.append(el('p', 'muted', 'More projects on the next page.'));
}

/** Media ids of any gflow result: generations, batches (items), chains (links), downloads and upscales. */
function mediaIdsOf(data, out) {
  if (!isObject(data)) return out;
  const add = (id) => {
    if (typeof id === 'string' && MEDIA_ID.test(id) && !out.includes(id) && out.length < MAX_MEDIA) out.push(id);
  };
  if (Array.isArray(data.media)) for (const item of data.media) if (isObject(item)) add(item.media_id);
  add(data.flow_media_id);
  if (Array.isArray(data.flow_media_ids)) for (const id of data.flow_media_ids) add(id);
  add(data.media_id);
  if (Array.isArray(data.items)) for (const item of data.items) mediaIdsOf(item, out);
  if (Array.isArray(data.links)) for (const link of data.links) if (isObject(link)) add(link.flow_media_id);
  return out;
}

function renderMedia(data, run) {
  const ids = mediaIdsOf(data, []);
  const status = typeof data.status === 'string' ? data.status : 'ok';
  body.append(part('p', 'result-status', ids.length ? status : status + ': no media in this result.'));
  const grid = part('div', 'media');
  body.append(grid);
  for (const id of ids) {
    const figure = el('figure', 'item');
    const caption = el('figcaption', 'muted', 'Loading ' + id + '…');
    figure.append(caption);
    grid.append(figure);
    loadMedia(id, figure, caption, run);
  }
}

function bytesOf(base64) {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function loadMedia(id, figure, caption, run) {
  try {
    const read = await app.readServerResource({ uri: 'gflow://media/' + id });
    if (run !== generation) return;
    const content = (read.contents || []).find((c) => isObject(c) && typeof c.blob === 'string');
    const type = content && typeof content.mimeType === 'string' ? content.mimeType : '';
    if (!content || !/^(image|video)\//.test(type)) throw new Error('no image or video in the resource');
    const url = URL.createObjectURL(new Blob([bytesOf(content.blob)], { type }));
    objectUrls.push(url);
    let media;
    if (type.startsWith('video/')) {
      media = el('video');
      media.controls = true;
      media.muted = true;
      media.autoplay = true;
      media.loop = true;
      media.playsInline = true;
      media.setAttribute('playsinline', '');
    } else {
      media = el('img');
      media.alt = 'Generated image ' + id;
    }
    media.dataset.mediaId = id;
    media.src = url;
    figure.prepend(media);
    caption.textContent = id;
  } catch (error) {
    if (run !== generation) return;
    figure.classList.add('missing');
    caption.textContent = 'Could not load ' + id + ': ' + (error && error.message ? error.message : String(error));
  }
}

function renderPending(data, run) {
  const isChain = typeof data.chain_id === 'string';
  const id = isChain ? data.chain_id : data.task_id;
  const box = part('section', 'pending');
  box.append(part('h2', 'pending-title', (isChain ? 'Chain ' : 'Task ') + id));
  const state = part('p', 'pending-state', data.status);
  box.append(state, el('progress'));
  body.append(box);
  // A queued generation is read as its task resource (what tasks/get answers, which a view cannot
  // send) through the host; a chain has a tool, gflow_chain_status, which the host may call for it.
  const host = app.getHostCapabilities() || {};
  if (!isChain) {
    if (!host.serverResources) {
      box.append(part('p', 'pending-note', 'Queued: the agent follows it and can show the result when it is done.'));
      return;
    }
    const follow = async () => {
      if (run !== generation) return;
      try {
        const read = await app.readServerResource({ uri: 'gflow://tasks/' + id });
        if (run !== generation) return;
        const text = read && Array.isArray(read.contents) && read.contents[0] ? read.contents[0].text : undefined;
        const task = typeof text === 'string' ? JSON.parse(text) : undefined;
        if (task && task.status === 'completed' && isObject(task.result)) return render(task.result);
        if (task && (task.status === 'cancelled' || task.status === 'failed')) {
          state.textContent = task.status + (task.statusMessage ? ': ' + task.statusMessage : '');
          return;
        }
        state.textContent = task && task.statusMessage ? task.statusMessage : 'working';
      } catch (error) {
        state.textContent = 'Could not read the task: ' + (error && error.message ? error.message : String(error));
      }
      setTimeout(follow, POLL_MS);
    };
    setTimeout(follow, POLL_MS);
    return;
  }
  const canCall = Boolean(host.serverTools);
  if (!canCall) {
    box.append(part('p', 'pending-note', 'Queued: the agent follows it and can show the result when it is done.'));
    return;
  }
  const poll = async () => {
    if (run !== generation) return;
    try {
      const reply = await app.callServerTool({ name: 'gflow_chain_status', arguments: { chain_id: id } });
      if (run !== generation) return;
      const shown = structuredOf(reply);
      if (reply.isError || (shown && shown.status !== 'pending' && shown.status !== 'running')) return render(reply);
      state.textContent = shown && typeof shown.status === 'string' ? shown.status : 'running';
    } catch (error) {
      state.textContent = 'Could not read the chain: ' + (error && error.message ? error.message : String(error));
    }
    setTimeout(poll, POLL_MS);
  };
  setTimeout(poll, POLL_MS);
}

app.ontoolinput = (params) => {
  const args = params && isObject(params.arguments) ? params.arguments : {};
  const words = typeof args.prompt === 'string' ? args.prompt : typeof args.media_id === 'string' ? args.media_id : '';
  promptLine.textContent = words;
};
app.ontoolresult = (result) => render(result);
app.ontoolcancelled = () => {
  reset();
  body.append(part('p', 'cancelled', 'The call was cancelled.'));
};

app.connect(new PostMessageTransport(window.parent, window.parent)).catch((error) => {
  reset();
  body.append(part('p', 'error-detail', 'Could not reach the host: ' + (error && error.message ? error.message : String(error))));
});
`;
