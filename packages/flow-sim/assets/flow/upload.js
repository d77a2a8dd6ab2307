// Toolbar "+" menu: Upload opens the file chooser; the first upload asks for image rights; then maseQ.
import { app, h, icon, t } from './dom.js';
import { snackbar } from './chrome.js';
import { openPane, overlayContainer } from './overlay.js';
import { rpc } from './wire.js';
import { newScene } from './sceneEntry.js';

function readBase64(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

function rightsDialog() {
  return new Promise((resolve) => {
    const backdrop = h('div', { class: 'cdk-overlay-backdrop cdk-overlay-dark-backdrop cdk-overlay-backdrop-showing' });
    const done = (ok) => {
      backdrop.remove();
      pane.remove();
      resolve(ok);
    };
    const pane = h(
      'div',
      { class: 'cdk-overlay-pane rights-pane' },
      h(
        'mat-dialog-container',
        { class: 'mat-mdc-dialog-container rights-dialog', role: 'dialog', 'aria-modal': 'true' },
        h('h2', {}, t('rightsTitle')),
        h('p', {}, t('rightsBody')),
        h(
          'div',
          { class: 'dialog-actions' },
          h(
            'button',
            { type: 'button', class: 'flow-button-medium variant-secondary', onclick: () => done(false) },
            t('cancel'),
          ),
          h(
            'button',
            { type: 'button', class: 'flow-button-medium variant-primary', onclick: () => done(true) },
            t('agree'),
          ),
        ),
      ),
    );
    overlayContainer().append(backdrop, pane);
  });
}

/**
 * Uploads one image through maseQ, after the one-time rights dialog. Answers the media id (the
 * reply's first slot), null when the reply has none, undefined when the dialog was cancelled;
 * throws when the rpc fails. The toolbar and the brief panel's references both use it.
 */
export async function uploadImage(file) {
  if (!app.termsAccepted) {
    if (!(await rightsDialog())) return undefined;
    app.termsAccepted = true;
  }
  const data = await readBase64(file);
  const reply = await rpc('maseQ', [[null, data, file.type || 'image/png'], file.name, app.projectId]);
  return typeof reply?.[0] === 'string' ? reply[0] : null;
}

async function uploadFile(file) {
  try {
    const id = await uploadImage(file);
    if (id === undefined) return;
    snackbar(id ? t('uploaded') : t('somethingWrong'));
    app.emit(id ? 'uploaded' : 'upload-declined');
  } catch {
    snackbar(t('somethingWrong'));
  }
}

export function toolbar() {
  const input = h('input', {
    type: 'file',
    accept: 'image/png,image/jpeg,image/webp,image/gif',
    class: 'hidden-file-input',
    style: 'display:none',
  });
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    input.value = '';
    if (file) uploadFile(file);
  });
  const add = h(
    'button',
    { type: 'button', class: 'toolbar-add-button mdc-icon-button', 'aria-haspopup': 'menu' },
    icon('add'),
  );
  add.addEventListener('click', () => {
    const item = (ic, label, run) =>
      h(
        'button',
        {
          role: 'menuitem',
          type: 'button',
          class: 'mat-mdc-menu-item',
          onclick: () => {
            entry.close();
            run();
          },
        },
        icon(ic),
        h('span', { class: 'mat-mdc-menu-item-text' }, label),
      );
    const entry = openPane({
      name: 'add-menu',
      anchor: add,
      content: h(
        'div',
        { role: 'menu', class: 'mat-mdc-menu-panel add-menu' },
        item('upload', t('upload'), () => input.click()),
        item('create_new_folder', t('newCollection'), () => {}),
        item('person_add', t('createCharacter'), () => {}),
        item('movie', t('newScene'), () => newScene()),
      ),
    });
  });
  return h('div', { class: 'project-toolbar' }, add, input);
}
