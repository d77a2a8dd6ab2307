// A CDK-like overlay container: panes stack; Escape closes the top one.
import { h } from './dom.js';

const stack = [];

export function overlayContainer() {
  let c = document.querySelector('.cdk-overlay-container');
  if (!c) {
    c = h('div', { class: 'cdk-overlay-container' });
    document.body.append(c);
  }
  return c;
}

/**
 * Opens a pane. `linger`: on close, the pane's content goes but the empty pane element stays
 * detached-looking in the container for a while (the model menu does this).
 */
export function openPane({
  name,
  content,
  backdrop = true,
  onClose = () => {},
  linger = 0,
  anchor = null,
  className = '',
}) {
  const container = overlayContainer();
  const bd = backdrop
    ? h('div', { class: 'cdk-overlay-backdrop cdk-overlay-transparent-backdrop cdk-overlay-backdrop-showing' })
    : null;
  const pane = h('div', { class: `cdk-overlay-pane ${className}`.trim() }, content);
  if (anchor) {
    const r = anchor.getBoundingClientRect();
    pane.style.left = `${Math.max(8, Math.min(r.left, window.innerWidth - 420))}px`;
    if (r.top < window.innerHeight / 2) {
      pane.style.top = `${r.bottom + 8}px`;
      pane.style.bottom = 'auto';
    } else pane.style.bottom = `${Math.max(8, window.innerHeight - r.top + 8)}px`;
  }
  if (bd) container.append(bd);
  container.append(pane);
  const entry = {
    name,
    pane,
    close() {
      const i = stack.indexOf(entry);
      if (i >= 0) stack.splice(i, 1);
      bd?.remove();
      if (linger > 0) {
        pane.replaceChildren();
        pane.classList.add('cdk-overlay-pane-detached');
        setTimeout(() => pane.remove(), linger);
      } else pane.remove();
      onClose();
    },
  };
  bd?.addEventListener('click', () => entry.close());
  stack.push(entry);
  return entry;
}

export function topPane() {
  return stack[stack.length - 1] ?? null;
}

export function findPane(name) {
  return stack.find((e) => e.name === name) ?? null;
}

document.addEventListener('keydown', (e) => {
  if (e.key !== 'Escape') return;
  const top = topPane();
  if (top) {
    e.preventDefault();
    top.close();
  }
});
