// Agent mode (chip pressed, trigger hidden) and the agent-only composer (no chip at all).
import { app, boot, h, icon, scaled, t, wiz } from './dom.js';
import { snackbar } from './chrome.js';
import { openPane } from './overlay.js';
import { settingsTrigger } from './settings.js';
import { rpc } from './wire.js';

function agentPanel(onClose) {
  const close = h('button', { type: 'button', class: 'agent-panel-close', 'aria-label': t('close') }, icon('close'));
  const panel = h(
    'flow-agent-panel',
    { class: 'agent-panel' },
    h('div', { class: 'agent-panel-header' }, t('agent'), close),
    h('div', { class: 'agent-chat' }),
  );
  close.addEventListener('click', () => {
    panel.remove();
    onClose?.();
  });
  return panel;
}

/** The agent-mode chip. Pressed: the settings trigger stays in the DOM with a bare `hidden`. */
export function agentChip(trigger) {
  const pressed = boot.cohort === 'agent_mode';
  const chip = h(
    'button',
    { type: 'button', class: 'agent-mode-chip', 'aria-pressed': pressed ? 'true' : 'false' },
    icon('auto_awesome'),
    t('agent'),
  );
  const action = h(
    'button',
    { type: 'button', class: 'agent-action-button', 'aria-pressed': 'false', hidden: !pressed },
    icon('lightbulb'),
  );
  let panel = null;
  const setPressed = (on) => {
    chip.setAttribute('aria-pressed', on ? 'true' : 'false');
    action.hidden = !on;
    if (on) {
      trigger.hidden = true;
      panel = agentPanel(() => (panel = null));
      document.querySelector('main')?.append(panel);
    } else {
      panel?.remove();
      panel = null;
      setTimeout(() => (trigger.hidden = false), 300);
    }
  };
  chip.addEventListener('click', () => setPressed(chip.getAttribute('aria-pressed') !== 'true'));
  if (pressed) queueMicrotask(() => setPressed(true));
  return h('span', { class: 'agent-chip-slot' }, chip, action);
}

function permissionGate(chat, cost) {
  return new Promise((resolve) => {
    const row = (label, value) => {
      const el = h(
        'div',
        { role: 'radio', class: 'option-row', 'aria-checked': 'false', tabindex: '0' },
        h('span', {}, label),
      );
      el.addEventListener('click', () => {
        if (msg.classList.contains('read-only')) return;
        el.setAttribute('aria-checked', 'true');
        msg.classList.add('read-only');
        resolve(value);
      });
      return el;
    };
    const msg = h(
      'flow-permission-message',
      {},
      h('p', {}, t('gate', { n: cost })),
      row(t('approve'), true),
      row(t('always'), true),
      row(t('rejectGate'), false),
    );
    chat.append(msg);
  });
}

export function agentOnlyView(grid, pendingTile, finishedTile) {
  const editor = h(
    'div',
    { class: 'ProseMirror', contenteditable: 'true', role: 'textbox', 'data-placeholder': t('agentPlaceholder') },
    h('p', {}),
  );
  const chat = h('div', { class: 'agent-chat' });
  const generate = h(
    'flow-generate-icon-button',
    {},
    h('button', { type: 'button', class: 'generate-button', 'aria-label': t('submit') }, icon('arrow_upward')),
  );
  const stop = h(
    'flow-stop-icon-button',
    {},
    h('button', { type: 'button', class: 'stop-button', 'aria-label': 'Stop' }, icon('stop')),
  );
  const slot = h('span', { class: 'generate-slot' }, generate);
  const trigger = settingsTrigger();
  trigger.hidden = true;
  const tune = h('button', { type: 'button', class: 'agent-settings-button' }, icon('tune'));
  tune.addEventListener('click', () => {
    const toggleGroup = (values) =>
      h(
        'mat-button-toggle-group',
        { role: 'group' },
        ...values.map((v) =>
          h('mat-button-toggle', {}, h('button', { type: 'button', class: 'mat-button-toggle-button' }, v)),
        ),
      );
    const entry = openPane({
      name: 'agent-settings',
      content: h(
        'flow-agent-panel',
        {},
        h(
          'flow-settings-view',
          {},
          h('button', { type: 'button', class: 'settings-back', onclick: () => entry.close() }, icon('arrow_back')),
          toggleGroup(['16:9', '4:3', '1:1', '3:4', '9:16']),
          toggleGroup(['x1', 'x2', 'x3', 'x4']),
          toggleGroup(['16:9', '9:16']),
          toggleGroup(['x1', 'x2']),
          h('button', { type: 'button', class: 'image-model-picker-button' }, 'Nano Banana 2'),
          h('button', { type: 'button', class: 'video-model-picker-button' }, 'Veo 3.1 - Lite'),
          h('button', { type: 'button', class: 'settings-save-button', onclick: () => entry.close() }, 'Save'),
        ),
      ),
    });
  });
  generate.querySelector('button').addEventListener('click', async () => {
    const message = editor.textContent.trim();
    if (!message) return;
    slot.replaceChildren(stop);
    chat.append(h('div', { class: 'user-turn' }, message));
    try {
      const isVideo = /\b(video|clip|animate|film)\b/i.test(message);
      if (isVideo && !(await permissionGate(chat, 10))) return;
      const tile = pendingTile(`agent-${Date.now()}`);
      const started = Date.now();
      const ticker = setInterval(
        () => {
          const p = tile.querySelector('.loading-percentage') ?? h('div', { class: 'loading-percentage' });
          tile.classList.remove('queued');
          p.textContent = `${Math.min(99, Math.round((Date.now() - started) / Math.max(1, scaled(300))))}%`;
          tile.append(p);
        },
        Math.max(50, scaled(1000)),
      );
      const res = await fetch('/_/AiSandboxAngularFrontend/agent/turn', {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/json', 'x-same-domain': '1', 'x-goog-csrf-token': wiz.SNlM0e },
        body: JSON.stringify({ projectId: app.projectId, message }),
      });
      clearInterval(ticker);
      if (!res.ok) throw new Error(String(res.status));
      const turn = await res.json();
      for (const m of turn.media) tile.replaceWith(finishedTile(m));
      if (turn.kind === 'video')
        chat.append(h('flow-a2ui-video-option', {}, h('img', { src: turn.media[0].posterUrl, alt: '' })));
      else setTimeout(() => rpc('WuwhI', [message, app.projectId]).catch(() => {}), scaled(18000));
    } catch {
      snackbar(t('somethingWrong'));
    } finally {
      slot.replaceChildren(generate);
    }
  });
  const box = h(
    'flow-creative-agent-prompt-box',
    {},
    h('flow-base-prompt-box', {}, h('flow-rich-text-editor', {}, editor), tune, trigger, slot),
  );
  return h('div', { class: 'agent-only-layout' }, grid, h('flow-agent-panel', { class: 'agent-panel' }, chat), box);
}
