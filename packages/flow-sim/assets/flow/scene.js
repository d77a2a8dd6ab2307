// The scene editor, /project/<pid>/scene/<sid> (flow-captures.md §10): a timeline of clips whose
// `+` opens a menu; an "Extend (Veo 3.1 - Lite)" entry takes a prompt and submitting it sends
// `fZytfe` with the last clip's WORKFLOW id and the frame window of its last second at 24 fps, then
// follows the job on `jwpduf` (status, no URL) and `as29s` (the bare workflow id, then the record).
// The wire follows the capture; the DOM, how a clip gets here and the entry's words are [U]
// (variants sceneEditor, sceneEntry, extendWords, extendModels: see the README).
import { app, boot, formatNumber, h, icon, scaled, sleep, t, uuid } from './dom.js';
import { consentBar, header, promoDialog, snackbar } from './chrome.js';
import { openPane } from './overlay.js';
import { clientContext, promptStruct, recaptchaToken, rpc, RpcRefusalError } from './wire.js';

const FPS = 24;
const storyboard = boot.variants.sceneEditor === 'storyboard';
let scene = null;
let track = null;

export function sceneView() {
  scene = { id: boot.scene.id, clips: boot.scene.clips.map((c) => ({ ...c })) };
  track = storyboard ? h('div', { role: 'list', class: 'scene-shots' }) : h('div', { class: 'timeline-track' });
  const add = h(
    'button',
    { type: 'button', class: storyboard ? 'add-shot-button' : 'timeline-add-button', 'aria-label': t('sceneAdd') },
    icon(storyboard ? 'add_circle' : 'add'),
  );
  add.addEventListener('click', () => addMenu(add));
  renderClips();
  const player = h('video', { class: 'scene-player', muted: true, playsinline: true, preload: 'none' });
  const main = storyboard
    ? h(
        'main',
        { class: 'scene-builder' },
        h('div', { class: 'scene-preview' }, player),
        h('div', { class: 'scene-strip' }, track, add),
      )
    : h(
        'main',
        { class: 'scene-editor' },
        h('flow-scene-player', {}, player),
        h('flow-scene-timeline', {}, track, add),
      );
  document.querySelector('aisandbox-root').replaceChildren(h('div', { class: 'app-shell' }, header(), main));
  consentBar();
  promoDialog();
}

function clipElement(clip) {
  const thumb = clip.token ? `/asb/${clip.token}` : clip.poster;
  const img = thumb ? h('img', { src: thumb, alt: clip.name }) : null;
  const length = `${clip.seconds}s`;
  if (storyboard) {
    return h(
      'div',
      { role: 'listitem', class: `scene-shot${clip.status === 3 ? '' : ' generating'}` },
      img,
      h('span', { class: 'shot-length' }, length),
    );
  }
  return h(
    'flow-timeline-clip',
    { class: `timeline-clip${clip.status === 3 ? '' : ' pending'}` },
    img,
    h('span', { class: 'clip-duration' }, length),
    clip.status === 3 ? null : h('div', { class: 'loading-percentage' }, '0%'),
  );
}

function renderClips() {
  track.replaceChildren(...scene.clips.map(clipElement));
}

function finishedLast() {
  const last = scene.clips[scene.clips.length - 1];
  return last && last.status === 3 ? last : null;
}

function entryWords(entry) {
  return boot.variants.extendWords === 'model-first'
    ? `${entry.label} · ${t('extend')}`
    : `${t('extend')} (${entry.label})`;
}

function addMenu(anchor) {
  const item = (ligature, label, run) =>
    h(
      'button',
      { role: 'menuitem', type: 'button', class: 'mat-mdc-menu-item', onclick: () => (pane.close(), run()) },
      icon(ligature),
      h('span', { class: 'mat-mdc-menu-item-text' }, label),
    );
  const entries = finishedLast()
    ? boot.scene.extend.map((entry) => item('keyboard_double_arrow_right', entryWords(entry), () => openExtend(entry)))
    : [];
  // [U] how a clip gets onto a scene: here, only under sceneEntry 'new-scene'.
  if (boot.variants.sceneEntry === 'new-scene')
    entries.push(item('video_library', t('addClip'), () => addClipPicker(anchor)));
  const pane = openPane({
    name: 'scene-add-menu',
    anchor,
    content: h('div', { role: 'menu', class: 'mat-mdc-menu-panel scene-add-menu' }, ...entries),
  });
}

/** The project's finished clips, listed by name and thumbnail (no media id in the DOM, like the Frames picker). */
function addClipPicker(anchor) {
  const clips = (boot.project?.media ?? []).filter((m) => m.kind === 'video' && m.status === 3 && m.videoUrl);
  const pane = openPane({
    name: 'scene-clip-picker',
    anchor,
    content: h(
      'div',
      { role: 'listbox', class: 'scene-clip-picker' },
      ...clips.map((m) => {
        const option = h(
          'button',
          { type: 'button', role: 'option', class: 'asset-item' },
          h('img', { src: `/asb/${m.token}`, alt: '' }),
          icon('movie'),
          h('span', { class: 'asset-name' }, m.name),
        );
        option.addEventListener('click', () => {
          pane.close();
          putOnScene(m.id).catch(() => snackbar(t('somethingWrong')));
        });
        return option;
      }),
    ),
  });
}

async function putOnScene(mediaId) {
  const [, clips] = await rpc('simScene', [app.projectId, scene.id, [mediaId]]);
  scene.clips = clips.map(([id, workflowId, seconds, aspectIndex, token, name, status]) => ({
    mediaId: id,
    workflowId,
    seconds,
    aspectIndex,
    token,
    name,
    status,
  }));
  renderClips();
}

/** The extend composer: a prompt box under the timeline, or a dialog (storyboard). */
function openExtend(entry) {
  document.querySelector('.extend-composer')?.remove();
  const submit = h(
    'button',
    { type: 'button', class: 'extend-submit', disabled: true },
    icon(storyboard ? 'send' : 'arrow_forward'),
  );
  const warning = h(
    'button',
    { type: 'button', class: 'prompt-warning-button', 'aria-label': t('insufficient') },
    icon('error'),
  );
  const field = storyboard
    ? h('textarea', { class: 'extend-prompt', rows: 3, placeholder: t('extendPlaceholder') })
    : h('div', { class: 'ProseMirror is-empty', contenteditable: 'true', 'data-placeholder': t('extendPlaceholder') });
  const read = () => (storyboard ? field.value : field.innerText).replace(/\u00a0/g, ' ').trim();
  const cost = storyboard
    ? h('span', { class: 'extend-cost' }, t('extendCost', { n: formatNumber(entry.cost) }))
    : h('div', { class: 'cost-line' }, ...costLine(entry.cost));
  const slot = h('span', { class: 'submit-slot' });
  const renderSubmit = () => slot.replaceChildren(app.credits < entry.cost ? warning : submit);
  renderSubmit();
  // The submit enables ~100 ms after input, as the composer's does.
  field.addEventListener('input', () => {
    field.classList.toggle('is-empty', read() === '');
    setTimeout(() => (submit.disabled = read() === ''), 100);
  });
  const close = h('button', { type: 'button', class: 'extend-close', 'aria-label': t('close') }, icon('close'));
  const box = storyboard
    ? h(
        'mat-dialog-container',
        { class: 'mat-mdc-dialog-container extend-composer extend-dialog', role: 'dialog' },
        field,
        cost,
        h('div', { class: 'dialog-actions' }, close, slot),
      )
    : h(
        'flow-scene-prompt-box',
        { class: 'extend-composer' },
        h('div', { class: 'editor-container' }, field),
        cost,
        h('div', { class: 'prompt-actions' }, close, slot),
      );
  const pane = storyboard ? openPane({ name: 'extend-dialog', content: box, className: 'extend-pane' }) : null;
  const dismiss = () => (pane ? pane.close() : box.remove());
  close.addEventListener('click', dismiss);
  submit.addEventListener('click', () => {
    const prompt = read();
    if (!prompt || submit.disabled) return;
    submit.disabled = true;
    dismiss();
    submitExtend(entry, prompt).catch(() => snackbar(t('somethingWrong')));
  });
  if (!pane) document.querySelector('main').append(box);
  field.focus();
}

function costLine(n) {
  const [before, after] = t('costLine').split('{n}');
  return [before, h('b', {}, formatNumber(n)), after];
}

/** The body §10 captured, built from the timeline's last clip. */
function extendBody(entry, prompt, source, token) {
  const d = source.seconds;
  // wrong_submit_body (a test switch): the page puts the clip's MEDIA id in the source slot.
  const sourceId = boot.wrongSubmitBody ? source.mediaId : source.workflowId;
  return [
    [
      [
        [null, sourceId, d * FPS - (FPS - 1), d * FPS],
        promptStruct(prompt),
        entry.key,
        source.aspectIndex,
        null,
        [scene.id, null, null, null, uuid(), uuid()],
      ],
    ],
    clientContext(app.projectId, token),
    [uuid(), 2, null, [scene.id, 2]],
  ];
}

async function submitExtend(entry, prompt) {
  const source = finishedLast();
  if (!source) return;
  const token = await recaptchaToken();
  const pending = {
    mediaId: null,
    workflowId: null,
    seconds: 0,
    aspectIndex: source.aspectIndex,
    name: prompt,
    status: 6,
  };
  scene.clips.push(pending);
  renderClips();
  try {
    const reply = await rpc('fZytfe', extendBody(entry, prompt, source, token));
    app.credits -= entry.cost;
    app.emit('credits');
    Object.assign(pending, idsOfReply(reply));
    await follow(pending);
  } catch (err) {
    scene.clips.splice(scene.clips.indexOf(pending), 1);
    renderClips();
    snackbar(err instanceof RpcRefusalError ? `${t('somethingWrong')} (${err.code})` : t('somethingWrong'));
  }
}

/** The new clip's ids from the reply: a record (or summary), or only the workflow id ([U], extendReply). */
function idsOfReply(reply) {
  const record = reply?.[3]?.[0]?.[0];
  if (isRecord(record)) return { workflowId: record[0], mediaId: record[2] };
  return { workflowId: Array.isArray(reply) ? reply[0] : reply, mediaId: null };
}

function isRecord(x) {
  return (
    Array.isArray(x) &&
    typeof x[0] === 'string' &&
    typeof x[2] === 'string' &&
    Array.isArray(x[5]) &&
    Array.isArray(x[7])
  );
}

/** The page's own polls: `jwpduf` every 5 s (status and size), `as29s` for the record with the URL (§4, §10). */
async function follow(clip) {
  const since = Date.now();
  while (Date.now() - since < 15 * 60_000) {
    await sleep(scaled(5000));
    await rpc('jwpduf', [clip.mediaId ? [clip.mediaId] : [], app.projectId]).catch(() => null);
    const full = await rpc('as29s', [clip.workflowId]).catch(() => null);
    if (!isRecord(full)) continue;
    const status = full[5][8][0];
    if (status !== 3 && status !== 2 && status !== 6) throw new Error(`extension failed (${status})`);
    if (status !== 3 || !full[7][0][8]) continue;
    Object.assign(clip, {
      mediaId: full[2],
      status: 3,
      seconds: full[7][1][2][0],
      poster: full[5][10],
      name: full[5][1],
    });
    renderClips();
    return;
  }
}
