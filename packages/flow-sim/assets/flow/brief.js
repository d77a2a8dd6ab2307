// The project editor's brief panel [U]: how flow.google.com shows or saves the Agent-mode brief was
// never captured, so every shape here is the simulator's own, documented in the README ("The brief
// panel"). The master switch, the instruction cards, and per card a switch, edit and remove; a form
// to add or edit one (title, text, references: an image of the project, a saved character, or an
// uploaded file). Saves send the whole card set through the page's batchexecute client under the
// made-up rpc id `simBrief`, and the panel re-renders from the server's answer.
import { app, boot, h, icon, t } from './dom.js';
import { snackbar } from './chrome.js';
import { openPane, overlayContainer } from './overlay.js';
import { searchAssets } from './picker.js';
import { uploadImage } from './upload.js';
import { rpc } from './wire.js';

const SAVE_RPC = 'simBrief';
const ACCEPT = 'image/png,image/jpeg,image/webp,image/gif';

/** The boot data and the save reply share one layout: `[[enabled, [CARD…]], [[id, type, name, thumb]…]]`. */
function decode(payload) {
  const [[enabled, cards], refs] = payload;
  return {
    brief: {
      enabled,
      cards: cards.map(([id, title, text, on, media, entities]) => ({
        id,
        title,
        text,
        enabled: on,
        imageMediaIds: media,
        characterIds: entities,
      })),
    },
    refs: refs.map(([id, type, name, thumb]) => ({ id, type, name, thumb })),
  };
}

const encode = (brief) => [
  brief.enabled,
  brief.cards.map((c) => [c.id, c.title, c.text, c.enabled, c.imageMediaIds, c.characterIds]),
];

/** Removing a card asks first unless the `briefRemoveConfirm` variant says `none`. */
function confirmRemove(title) {
  if (boot.variants.briefRemoveConfirm === 'none') return Promise.resolve(true);
  return new Promise((resolve) => {
    const backdrop = h('div', { class: 'cdk-overlay-backdrop cdk-overlay-dark-backdrop cdk-overlay-backdrop-showing' });
    const done = (ok) => {
      backdrop.remove();
      pane.remove();
      document.removeEventListener('keydown', onKey, true);
      resolve(ok);
    };
    const onKey = (e) => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      done(false);
    };
    const pane = h(
      'div',
      { class: 'cdk-overlay-pane brief-confirm-pane' },
      h(
        'mat-dialog-container',
        { class: 'mat-mdc-dialog-container brief-confirm-dialog', role: 'alertdialog', 'aria-modal': 'true' },
        h('p', {}, t('briefRemoveConfirm', { title })),
        h(
          'div',
          { class: 'dialog-actions' },
          h(
            'button',
            { type: 'button', class: 'mat-mdc-button brief-confirm-cancel', onclick: () => done(false) },
            t('cancel'),
          ),
          h(
            'button',
            { type: 'button', class: 'mat-mdc-unelevated-button brief-confirm-remove', onclick: () => done(true) },
            icon('delete'),
            t('briefRemoveYes'),
          ),
        ),
      ),
    );
    overlayContainer().append(backdrop, pane);
    document.addEventListener('keydown', onKey, true);
  });
}

/** Images (media rows, no videos) or saved characters (entity rows), from the page's own asset search. */
function openReferencePicker(tab, anchor, onPick) {
  const list = h('div', { class: 'asset-list', role: 'listbox' });
  const content = h('flow-instruction-reference-picker', { class: 'instruction-reference-picker' }, list);
  const entry = openPane({ name: 'brief-reference-picker', content, anchor });
  searchAssets('', tab)
    .then((assets) => {
      const shown = assets.filter((a) =>
        tab === 'CHARACTERS' ? a.refType === 'entity' : a.refType === 'media' && a.kind !== 'VIDEO',
      );
      list.replaceChildren(
        ...shown.map((a) => {
          const option = h(
            'button',
            { role: 'option', type: 'button', class: 'asset-item' },
            h('img', { class: 'asset-thumb', src: a.thumb, alt: '' }),
            icon(tab === 'CHARACTERS' ? 'person' : 'image'),
            h('span', { class: 'asset-name' }, a.name),
          );
          option.addEventListener('click', () => {
            entry.close();
            onPick({ id: a.id, type: a.refType, name: a.name, thumb: a.thumb });
          });
          return option;
        }),
      );
    })
    .catch(() => snackbar(t('somethingWrong')));
}

/** The `aside.instructions-panel`, rendered in both editor layouts (also when the brief is empty). */
export function briefPanel() {
  const initial = decode(boot.project.brief);
  const explicit = boot.variants.briefSave === 'explicit';
  const s = {
    /** The brief as the server last answered it. */
    saved: initial.brief,
    /** Explicit saving: the changed set not saved yet. */
    draft: null,
    /** What a save in flight asked for (shown while it runs). */
    pending: null,
    /** The card open in the form: `{ key, form: {title, text, refs} }`; key 'new' adds one. */
    editing: null,
    refs: new Map(initial.refs.map((r) => [r.id, r])),
  };
  let newKeys = 0;
  const panel = h('aside', { class: 'instructions-panel' });
  const current = () => s.draft ?? s.saved;
  const keyOf = (card) => card.id ?? card.key;
  const refsOf = (card) => [
    ...card.imageMediaIds.map((id) => s.refs.get(id) ?? { id, type: 'media', name: id, thumb: null }),
    ...card.characterIds.map((id) => s.refs.get(id) ?? { id, type: 'entity', name: id, thumb: null }),
  ];

  async function send(next) {
    s.pending = next;
    render();
    try {
      const reply = decode(await rpc(SAVE_RPC, [app.projectId, encode(next)]));
      s.saved = reply.brief;
      for (const r of reply.refs) s.refs.set(r.id, r);
      s.draft = null;
    } catch {
      snackbar(t('somethingWrong'));
    }
    s.pending = null;
    render();
  }

  function commit(next) {
    if (!explicit) return send(next);
    s.draft = next;
    render();
    return undefined;
  }

  const changeCard = (key, change) => {
    const base = current();
    commit({ ...base, cards: base.cards.map((c) => (keyOf(c) === key ? change(c) : c)) });
  };

  function refChip(ref, onRemove) {
    return h(
      'span',
      { class: 'brief-ref-chip', 'data-reference-type': ref.type, 'data-reference-id': ref.id },
      ref.thumb
        ? h('img', { class: 'brief-ref-thumb', src: ref.thumb, alt: '' })
        : icon(ref.type === 'entity' ? 'person' : 'image'),
      h('span', { class: 'brief-ref-name' }, ref.name),
      onRemove
        ? h(
            'button',
            { type: 'button', class: 'brief-ref-remove', 'aria-label': t('briefRefRemove'), onclick: onRemove },
            icon('close'),
          )
        : null,
    );
  }

  function cardView(card) {
    const key = keyOf(card);
    const busy = s.pending !== null;
    const toggle = h(
      'button',
      {
        type: 'button',
        role: 'switch',
        class: 'instruction-card-switch',
        'aria-checked': String(card.enabled),
        'aria-label': t('briefCardSwitch'),
        disabled: busy,
      },
      icon(card.enabled ? 'toggle_on' : 'toggle_off'),
    );
    toggle.addEventListener('click', () => changeCard(key, (c) => ({ ...c, enabled: !c.enabled })));
    const edit = h(
      'button',
      {
        type: 'button',
        class: 'instruction-card-edit',
        'aria-label': t('briefEdit'),
        disabled: busy || s.editing !== null,
      },
      icon('edit'),
    );
    edit.addEventListener('click', () => {
      s.editing = { key, form: { title: card.title, text: card.text, refs: refsOf(card) } };
      render();
    });
    const remove = h(
      'button',
      { type: 'button', class: 'instruction-card-remove', 'aria-label': t('briefRemove'), disabled: busy },
      icon('delete'),
    );
    remove.addEventListener('click', async () => {
      if (!(await confirmRemove(card.title))) return;
      const base = current();
      commit({ ...base, cards: base.cards.filter((c) => keyOf(c) !== key) });
    });
    const refs = refsOf(card);
    return h(
      'flow-instruction-card',
      {
        class: `instruction-card${card.enabled ? '' : ' instruction-card-off'}`,
        role: 'listitem',
        'data-card-id': card.id,
        'data-enabled': String(card.enabled),
        'data-image-media-ids': card.imageMediaIds.join(','),
        'data-character-ids': card.characterIds.join(','),
      },
      h(
        'div',
        { class: 'instruction-card-head' },
        h('span', { class: 'instruction-card-title' }, card.title),
        toggle,
        edit,
        remove,
      ),
      h('p', { class: 'instruction-card-text' }, card.text),
      refs.length > 0 ? h('div', { class: 'instruction-card-refs' }, ...refs.map((r) => refChip(r, null))) : null,
    );
  }

  function editor(card) {
    const { key, form } = s.editing;
    const title = h('input', {
      type: 'text',
      class: 'instruction-title-input',
      placeholder: t('briefTitle'),
      'aria-label': t('briefTitle'),
      maxlength: '200',
    });
    title.value = form.title;
    const text = h('textarea', {
      class: 'instruction-text-input',
      placeholder: t('briefText'),
      'aria-label': t('briefText'),
      rows: '3',
    });
    text.value = form.text;
    const done = h('button', { type: 'button', class: 'instruction-form-submit' }, icon('check'), t('briefDone'));
    const sync = () => {
      done.disabled = form.title.trim() === '' || form.text.trim() === '';
    };
    title.addEventListener('input', () => {
      form.title = title.value;
      sync();
    });
    text.addEventListener('input', () => {
      form.text = text.value;
      sync();
    });
    const chips = h('div', { class: 'instruction-ref-chips' });
    const drawChips = () =>
      chips.replaceChildren(
        ...form.refs.map((r) =>
          refChip(r, () => {
            form.refs = form.refs.filter((x) => x.id !== r.id);
            drawChips();
          }),
        ),
      );
    const addPicked = (ref) => {
      if (!form.refs.some((r) => r.id === ref.id)) form.refs.push(ref);
      drawChips();
    };
    drawChips();
    const file = h('input', { type: 'file', accept: ACCEPT, class: 'instruction-ref-file', style: 'display:none' });
    file.addEventListener('change', async () => {
      const chosen = file.files?.[0];
      file.value = '';
      if (!chosen) return;
      try {
        const id = await uploadImage(chosen);
        if (id === undefined) return;
        if (id === null) return snackbar(t('somethingWrong'));
        addPicked({ id, type: 'media', name: chosen.name, thumb: null });
      } catch {
        snackbar(t('somethingWrong'));
      }
    });
    const addRef = h(
      'button',
      { type: 'button', class: 'instruction-add-ref', 'aria-label': t('briefAddRef'), 'aria-haspopup': 'menu' },
      icon('add_photo_alternate'),
    );
    addRef.addEventListener('click', () => {
      const item = (glyph, label, run) =>
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
          icon(glyph),
          h('span', { class: 'mat-mdc-menu-item-text' }, label),
        );
      const entry = openPane({
        name: 'brief-reference-menu',
        anchor: addRef,
        content: h(
          'div',
          { role: 'menu', class: 'mat-mdc-menu-panel brief-reference-menu' },
          item('image', t('briefFromProject'), () => openReferencePicker('IMAGES', addRef, addPicked)),
          item('person', t('characters'), () => openReferencePicker('CHARACTERS', addRef, addPicked)),
          item('upload_file', t('briefUploadImage'), () => file.click()),
        ),
      });
    });
    const cancel = h('button', { type: 'button', class: 'instruction-form-cancel' }, t('cancel'));
    cancel.addEventListener('click', () => {
      s.editing = null;
      render();
    });
    done.addEventListener('click', () => {
      const fields = {
        title: form.title.trim(),
        text: form.text,
        imageMediaIds: form.refs.filter((r) => r.type === 'media').map((r) => r.id),
        characterIds: form.refs.filter((r) => r.type === 'entity').map((r) => r.id),
      };
      for (const r of form.refs) s.refs.set(r.id, r);
      s.editing = null;
      const base = current();
      if (card === null) {
        newKeys += 1;
        commit({ ...base, cards: [...base.cards, { id: null, key: `new-${newKeys}`, enabled: true, ...fields }] });
      } else commit({ ...base, cards: base.cards.map((c) => (keyOf(c) === key ? { ...c, ...fields } : c)) });
    });
    sync();
    return h(
      'flow-instruction-card-editor',
      { class: 'instruction-card-editor', 'data-card-id': card?.id },
      title,
      text,
      chips,
      h('div', { class: 'instruction-editor-actions' }, addRef, file, cancel, done),
    );
  }

  function render() {
    const busy = s.pending !== null;
    const brief = s.pending ?? current();
    if (busy) panel.setAttribute('aria-busy', 'true');
    else panel.removeAttribute('aria-busy');
    const master = h(
      'button',
      {
        type: 'button',
        role: 'switch',
        class: 'brief-master-switch',
        'aria-checked': String(brief.enabled),
        'aria-label': t('briefUse'),
        disabled: busy,
      },
      icon(brief.enabled ? 'toggle_on' : 'toggle_off'),
    );
    master.addEventListener('click', () => commit({ ...current(), enabled: !current().enabled }));
    const list = h('div', { class: 'instruction-card-list', role: 'list' });
    for (const card of brief.cards) list.append(s.editing?.key === keyOf(card) ? editor(card) : cardView(card));
    if (s.editing?.key === 'new') list.append(editor(null));
    if (brief.cards.length === 0 && s.editing === null)
      list.append(h('p', { class: 'instructions-empty' }, t('briefEmpty')));
    const add = h(
      'button',
      { type: 'button', class: 'instruction-add-button', disabled: busy || s.editing !== null },
      icon('post_add'),
      t('briefAdd'),
    );
    add.addEventListener('click', () => {
      s.editing = { key: 'new', form: { title: '', text: '', refs: [] } };
      render();
      panel.querySelector('.instruction-title-input')?.focus();
    });
    const save = explicit
      ? h(
          'button',
          { type: 'button', class: 'brief-save-button', disabled: busy || s.draft === null || s.editing !== null },
          icon('save'),
          t('briefSave'),
        )
      : null;
    save?.addEventListener('click', () => {
      if (s.draft !== null) send(s.draft);
    });
    panel.replaceChildren(
      h(
        'div',
        { class: 'instructions-header' },
        h('h3', {}, t('instructions')),
        master,
        h('span', { class: 'brief-master-label' }, t('briefUse')),
      ),
      list,
      h('div', { class: 'instructions-actions' }, add, save),
    );
  }

  render();
  return panel;
}
