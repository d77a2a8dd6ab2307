// The library picker (Frames chips) and the @ mention picker, both backed by UpteDb.
import { app, boot, h, icon, t } from './dom.js';
import { openPane } from './overlay.js';
import { rpc } from './wire.js';

const KIND_ICON = { IMAGE: 'image', UPLOAD: 'image', VIDEO: 'movie', CHARACTER: 'person' };

export async function searchAssets(query, tab = 'ALL') {
  const reply = await rpc('UpteDb', [query, tab, app.projectId]);
  // A row's thumbnail, or (variant searchThumbs 'parallel') the one at its position in the list beside the rows.
  return (reply?.[0] ?? []).map((r, i) => ({
    id: r[0],
    name: r[1],
    kind: r[2],
    thumb: r[3] ?? reply?.[1]?.[i] ?? null,
    size: r[4],
    refType: r[5],
  }));
}

// The `@` overlay names each option's type right after its name, as text ("me.jpgImage",
// "a man cryingVideo", "MeAvatar": flow-captures.md §1); a character's word is [U].
const TYPE_WORD = { IMAGE: 'typeImage', UPLOAD: 'typeImage', VIDEO: 'typeVideo', CHARACTER: 'typeCharacter' };

function option(asset, active, typed = false) {
  return h(
    'button',
    {
      role: 'option',
      type: 'button',
      class: `asset-item${active ? ' asset-item-active' : ''}`,
      'aria-selected': active ? 'true' : 'false',
    },
    h('img', { class: 'asset-thumb', src: asset.thumb, alt: '' }),
    icon(KIND_ICON[asset.kind] ?? 'image'),
    h('span', { class: 'asset-name' }, asset.name),
    typed ? h('span', { class: 'asset-type' }, t(TYPE_WORD[asset.kind] ?? 'typeImage')) : null,
  );
}

/** Frames library picker: search box, options by file name, commit on click or via "Add to prompt". */
export function openLibraryPicker(anchor, onPick) {
  const input = h('input', {
    type: 'text',
    class: 'asset-search-input',
    placeholder: t('search'),
    'aria-label': t('search'),
  });
  const list = h('div', { class: 'asset-list', role: 'listbox' });
  const detail = h('div', { class: 'asset-detail' });
  const content = h('flow-add-menu-popover-content', {}, h('div', { class: 'popover-header' }, input), list, detail);
  let timer = null;
  let seq = 0;
  const commit = (asset) => {
    entry.close();
    onPick(asset);
  };
  const show = async () => {
    const mine = ++seq;
    let assets;
    try {
      assets = await searchAssets(input.value.trim(), 'IMAGES');
    } catch {
      return;
    }
    if (mine !== seq) return;
    list.replaceChildren(
      ...assets
        .filter((a) => a.refType === 'media' && a.kind !== 'VIDEO')
        .map((a) => {
          const el = option(a, false);
          el.addEventListener('click', () => {
            if (boot.pickerCommit === 'click') return commit(a);
            for (const o of list.querySelectorAll('.asset-item')) o.classList.remove('asset-item-active');
            el.classList.add('asset-item-active');
            detail.replaceChildren(
              h('img', { class: 'detail-preview', src: a.thumb, alt: '' }),
              h('span', { class: 'detail-name' }, a.name),
              h(
                'button',
                {
                  type: 'button',
                  class: 'header-close-btn',
                  'aria-label': t('close'),
                  onclick: () => detail.replaceChildren(),
                },
                icon('close'),
              ),
              h(
                'button',
                { type: 'button', class: 'detail-add-to-prompt-btn', onclick: () => commit(a) },
                t('addToPrompt'),
              ),
            );
          });
          return el;
        }),
    );
  };
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(show, 200);
  });
  const entry = openPane({ name: 'library-picker', content, anchor });
  input.focus();
  // What the picker lists before anything is typed (variant libraryPickerOpens [U]): the library, or nothing.
  if (boot.variants.libraryPickerOpens !== 'empty') show();
  return entry;
}

const TABS = [
  ['ALL', 'all'],
  ['IMAGES', 'images'],
  ['VIDEOS', 'videos'],
  ['VOICES', 'voices'],
  ['CHARACTERS', 'characters'],
  ['AVATARS', 'avatars'],
  ['UPLOADS', 'uploads'],
];

/** The @ mention picker: tabs, options, arrow keys move the active option, Enter commits. */
export function openMentionPicker(anchor, onPick) {
  let tab = 'ALL';
  let query = '';
  let assets = [];
  let active = 0;
  let seq = 0;
  const tabs = h('div', { class: 'mention-tabs', role: 'tablist' });
  const list = h('div', { class: 'asset-list', role: 'listbox' });
  const renderTabs = () =>
    tabs.replaceChildren(
      ...TABS.map(([value, key]) => {
        const el = h(
          'mat-list-item',
          {
            role: 'tab',
            class: 'mat-mdc-list-item',
            'aria-selected': value === tab ? 'true' : 'false',
            tabindex: '-1',
          },
          t(key),
        );
        el.addEventListener('mousedown', (e) => e.preventDefault());
        el.addEventListener('click', () => {
          tab = value;
          renderTabs();
          refresh();
        });
        return el;
      }),
    );
  const renderList = () =>
    list.replaceChildren(
      ...assets.map((a, i) => {
        const el = option(a, i === active, true);
        el.addEventListener('mousedown', (e) => e.preventDefault());
        el.addEventListener('click', () => pick(a));
        return el;
      }),
    );
  const refresh = async () => {
    const mine = ++seq;
    try {
      const found = await searchAssets(query, tab);
      if (mine !== seq) return;
      assets = found;
      active = 0;
      renderList();
    } catch {
      // the picker simply stays empty
    }
  };
  let closed = false;
  const api = {
    setQuery(q) {
      if (q === query) return;
      query = q;
      clearTimeout(api.timer);
      api.timer = setTimeout(refresh, 150);
    },
    move(delta) {
      if (assets.length === 0) return;
      active = (active + delta + assets.length) % assets.length;
      renderList();
    },
    commitActive() {
      const a = assets[active];
      if (a) pick(a);
      return Boolean(a);
    },
    close() {
      if (!closed) entry.close();
    },
    get open() {
      return !closed;
    },
  };
  const pick = (a) => {
    api.close();
    onPick(a);
  };
  renderTabs();
  const entry = openPane({
    name: 'mention-picker',
    content: h('div', { class: 'mention-picker' }, tabs, list),
    anchor,
    backdrop: false,
    onClose: () => (closed = true),
  });
  rpc('as29s', [null, app.projectId]).catch(() => {});
  refresh();
  return api;
}
