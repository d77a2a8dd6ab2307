// The classic composer: Frames chips, ProseMirror editor with @ mentions, agent chip, trigger, submit.
import { app, boot, h, icon, t } from './dom.js';
import { openLibraryPicker, openMentionPicker } from './picker.js';
import { currentCost, onSettingsChange, settings, settingsTrigger } from './settings.js';

export const frames = { start: null, end: null };
let editor = null;
let submitSlot = null;
let submitButton = null;
let chipsRow = null;
let picker = null;
let submitHandler = () => {};

export function promptText() {
  let out = '';
  const walk = (node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) out += child.textContent;
      else if (child.classList?.contains('mention-chip')) out += child.dataset.name;
      else if (child.nodeName === 'BR') out += '\n';
      else {
        if (child.nodeName === 'P' && out.length > 0 && !out.endsWith('\n')) out += '\n';
        walk(child);
      }
    }
  };
  if (editor) walk(editor);
  return out.replace(/\u00a0/g, ' ').trim();
}

// What each chip references, kept by the page (a media chip's DOM carries no id, flow-captures.md §1).
const chipRefs = new WeakMap();

export function mentions() {
  if (!editor) return [];
  return [...editor.querySelectorAll('.mention-chip')]
    .filter((c) => chipRefs.has(c))
    .map((c) => ({ ...chipRefs.get(c), name: c.dataset.name }));
}

function hasContent() {
  return promptText().length > 0;
}

function textBeforeCaret() {
  const sel = window.getSelection();
  if (!sel || sel.rangeCount === 0) return { node: null, text: '' };
  const node = sel.focusNode;
  if (!node || node.nodeType !== Node.TEXT_NODE || !editor.contains(node)) return { node: null, text: '' };
  return { node, offset: sel.focusOffset, text: node.textContent.slice(0, sel.focusOffset) };
}

function commitMention(asset) {
  editor.focus();
  const { node, offset, text } = textBeforeCaret();
  const type = asset.refType === 'entity' ? 'entity' : 'media';
  // Character chips carry their entity id (measured 2026-09-07); media chips none, unless the variant says so.
  const entityId = type === 'entity' || boot.variants.mediaChipEntityId === 'media-id' ? asset.id : null;
  const chip = h(
    'span',
    {
      class: 'mention-chip',
      contenteditable: 'false',
      'data-reference-type': type,
      'data-entity-id': entityId,
      'data-name': asset.name,
    },
    `@${asset.name}`,
  );
  chipRefs.set(chip, { type, id: asset.id });
  const space = document.createTextNode('\u00a0');
  if (node) {
    const m = /@[^\s@]*$/.exec(text);
    const start = m ? offset - m[0].length : offset;
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, offset);
    range.deleteContents();
    range.insertNode(space);
    range.insertNode(chip);
  } else editor.lastElementChild?.append(chip, space);
  const sel = window.getSelection();
  const after = document.createRange();
  after.setStartAfter(space);
  after.collapse(true);
  sel.removeAllRanges();
  sel.addRange(after);
  scheduleEnable();
}

let enableTimer = null;
/** The submit button enables ~100 ms after input, as on Flow. */
function scheduleEnable() {
  clearTimeout(enableTimer);
  enableTimer = setTimeout(() => {
    if (submitButton) submitButton.disabled = !hasContent();
  }, 100);
}

function buildEditor() {
  editor = h(
    'div',
    {
      class: 'ProseMirror',
      contenteditable: 'true',
      role: 'textbox',
      'aria-multiline': 'true',
      translate: 'no',
      'data-placeholder': t('placeholder'),
    },
    h('p', {}),
  );
  editor.addEventListener('input', (e) => {
    scheduleEnable();
    editor.classList.toggle('is-empty', editor.textContent.length === 0);
    const { text } = textBeforeCaret();
    const m = /@([^\s@]*)$/.exec(text);
    if (
      e.inputType === 'insertText' &&
      typeof e.data === 'string' &&
      e.data.includes('@') &&
      !(picker && picker.open)
    ) {
      picker = openMentionPicker(editor, commitMention);
      // insert_text of a whole "@name" opens a picker with no query (measured quirk)
      picker.noQuery = e.data !== '@';
    }
    if (picker && picker.open) {
      if (!m) picker.close();
      else if (!picker.noQuery) picker.setQuery(m[1]);
    }
  });
  editor.addEventListener('keydown', (e) => {
    if (picker && picker.open) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        picker.move(e.key === 'ArrowDown' ? 1 : -1);
        return;
      }
      if (e.key === 'Enter') {
        e.preventDefault();
        picker.commitActive();
        return;
      }
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      if (submitButton && !submitButton.disabled && submitButton.isConnected) submitButton.click();
    }
  });
  editor.classList.add('is-empty');
  return editor;
}

function renderChips() {
  if (!chipsRow) return;
  const show = settings.mode === 'video' && settings.submode === 'frames';
  chipsRow.hidden = !show;
  if (!show) return chipsRow.replaceChildren();
  chipsRow.replaceChildren(
    ...['start', 'end'].map((slot) => {
      const bound = frames[slot];
      if (bound) {
        const chip = h(
          'button',
          { type: 'button', class: 'chip-container', 'data-slot': slot },
          h('img', { src: bound.thumb, alt: '' }),
          h('span', { class: 'chip-label' }, t(slot)),
          icon('close'),
        );
        chip.addEventListener('click', () => {
          frames[slot] = null;
          renderChips();
        });
        return chip;
      }
      const chip = h(
        'button',
        { type: 'button', class: 'empty-chip', 'data-slot': slot },
        icon('add'),
        h('span', { class: 'chip-label' }, t(slot)),
      );
      chip.addEventListener('click', () =>
        openLibraryPicker(chip, (asset) => {
          frames[slot] = asset;
          renderChips();
        }),
      );
      return chip;
    }),
  );
}

/** Submit, or the credits warning that replaces it (it is not a disabled submit). */
export function renderSubmit() {
  if (!submitSlot) return;
  if (currentCost() > app.credits) {
    submitButton = null;
    submitSlot.replaceChildren(
      h(
        'button',
        { type: 'button', class: 'prompt-warning-button', 'aria-label': t('insufficient') },
        icon('warning'),
        t('insufficient'),
      ),
    );
    return;
  }
  if (submitButton && submitButton.isConnected) return;
  submitButton = h(
    'button',
    { type: 'button', class: 'submit-button mdc-icon-button', 'aria-label': t('submit'), disabled: !hasContent() },
    icon('arrow_forward'),
  );
  submitButton.addEventListener('click', () => {
    if (!submitButton.disabled) submitHandler();
  });
  submitSlot.replaceChildren(submitButton);
}

/** Empties the prompt (its mention chips with it) and unbinds both frames: after a submit, on `composerAfterSubmit: 'clear'` [U]. */
export function clearComposer() {
  if (editor) {
    editor.replaceChildren();
    editor.classList.add('is-empty');
  }
  frames.start = null;
  frames.end = null;
  renderChips();
  scheduleEnable();
}

export function composer(onSubmit, agentChip) {
  submitHandler = onSubmit;
  chipsRow = h('div', { class: 'frame-chips' });
  submitSlot = h('span', { class: 'submit-slot' });
  const trigger = settingsTrigger();
  const box = h(
    'flow-prompt-box',
    {},
    chipsRow,
    h(
      'div',
      { class: 'editor-container' },
      h('textarea', { class: 'prompt-textarea', 'aria-hidden': 'true', tabindex: '-1' }),
      buildEditor(),
    ),
    h('div', { class: 'prompt-actions' }, agentChip(trigger), trigger, submitSlot),
  );
  renderChips();
  renderSubmit();
  onSettingsChange(() => {
    renderChips();
    renderSubmit();
  });
  app.listeners.add((e) => {
    if (e === 'credits') renderSubmit();
  });
  return box;
}
