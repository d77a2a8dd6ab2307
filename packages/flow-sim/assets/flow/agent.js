// Agent mode (chip pressed, trigger hidden) and the agent-only composer (no chip at all).
import { app, boot, h, icon, scaled, t, wiz } from './dom.js';
import { snackbar } from './chrome.js';
import { tileAlt } from './grid.js';
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

// ---- The agent-only composer (flow-wire §4 "Agent-only composer (#799)"). The server channel is
// the simulator's invention [U] (src/hosts/agentTurn.ts); the DOM follows flow-wire §4.

async function agentPost(path, body) {
  const res = await fetch(`/_/AiSandboxAngularFrontend/agent/${path}`, {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json', 'x-same-domain': '1', 'x-goog-csrf-token': wiz.SNlM0e },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(String(res.status));
  return res.json();
}

/** A credit confirmation: `div[role=radio].option-row`s — check Approve, check Always, close Reject (not buttons). */
function permissionGate(chat, text) {
  return new Promise((resolve) => {
    const msg = h('flow-permission-message', {}, h('p', { class: 'permission-text' }, text));
    const row = (glyph, label, value) => {
      const el = h(
        'div',
        { role: 'radio', class: 'option-row', 'aria-checked': 'false', tabindex: '0' },
        icon(glyph),
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
    msg.append(
      row('check', t('approve'), 'approve'),
      row('check', t('always'), 'always'),
      row('close', t('rejectGate'), 'reject'),
    );
    chat.append(msg);
  });
}

const agentMessage = (chat, text) => chat.append(h('flow-agent-message', { class: 'agent-message' }, text));

function toggleGroup(values, selected, onPick) {
  const group = h('mat-button-toggle-group', { role: 'group', class: 'mat-button-toggle-group' });
  const render = (current) => {
    group.replaceChildren(
      ...values.map((v) => {
        const on = v === current;
        const button = h(
          'button',
          { type: 'button', class: 'mat-button-toggle-button', 'aria-pressed': on ? 'true' : 'false' },
          h('span', { class: 'mat-button-toggle-label-content' }, v),
        );
        button.addEventListener('click', () => {
          onPick(v);
          render(v);
        });
        return h('mat-button-toggle', { class: `mat-button-toggle${on ? ' mat-button-toggle-checked' : ''}` }, button);
      }),
    );
  };
  render(selected);
  return group;
}

function modelPicker(cls, labels, current, onPick) {
  const button = h('button', { type: 'button', class: cls }, h('span', {}, current), icon('arrow_drop_down'));
  button.addEventListener('click', () => {
    const menu = openPane({
      name: 'agent-model-menu',
      anchor: button,
      content: h(
        'div',
        { role: 'menu', class: 'mat-mdc-menu-panel' },
        ...labels.map((label) =>
          h(
            'button',
            {
              type: 'button',
              role: 'menuitem',
              class: 'mat-mdc-menu-item',
              onclick: () => {
                onPick(label);
                button.firstChild.textContent = label;
                menu.close();
              },
            },
            h('span', { class: 'mat-mdc-menu-item-text' }, label),
          ),
        ),
      ),
    });
  });
  return button;
}

function confirmRadios(current, onPick) {
  const wrap = h('mat-radio-group', { role: 'radiogroup', class: 'confirm-before-generating' });
  const render = (value) => {
    wrap.replaceChildren(
      ...[
        ['always', t('confirmAlways')],
        ['never', t('confirmNever')],
      ].map(([v, label]) => {
        const input = h('input', { type: 'radio', name: 'confirm-before-generating', value: v, checked: v === value });
        input.addEventListener('change', () => {
          onPick(v);
          render(v);
        });
        return h(
          'mat-radio-button',
          { class: `mat-mdc-radio-button${v === value ? ' mat-mdc-radio-checked' : ''}` },
          h('label', {}, input, h('span', {}, label)),
        );
      }),
    );
  };
  render(current);
  return wrap;
}

const IMAGE_ASPECT_RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16'];

/** The agent's settings: toggle groups image aspect, image count, video aspect, video count; two model pickers; confirm radios. */
function openAgentSettings(saved, onSaved) {
  const draft = { ...saved };
  const imageModels = boot.models.image
    .filter((m) => (boot.variants.imageMenu === 'nb2' ? m.id !== 'nb21' : m.id !== 'nb2'))
    .map((m) => m.label);
  const videoModels = boot.models.video.filter((m) => m.id !== 'veo_lite_lp').map((m) => m.label);
  const save = h('button', { type: 'button', class: 'settings-save-button' }, t('save'));
  const back = h('button', { type: 'button', class: 'settings-back' }, icon('arrow_back'));
  const entry = openPane({
    name: 'agent-settings',
    content: h(
      'flow-agent-panel',
      { class: 'agent-settings-panel' },
      h(
        'flow-settings-view',
        {},
        back,
        toggleGroup(IMAGE_ASPECT_RATIOS, draft.imageAspect, (v) => (draft.imageAspect = v)),
        toggleGroup(['x1', 'x2', 'x3', 'x4'], `x${draft.imageCount}`, (v) => (draft.imageCount = Number(v.slice(1)))),
        toggleGroup(['16:9', '9:16'], draft.videoAspect, (v) => (draft.videoAspect = v)),
        toggleGroup(['x1', 'x2'], `x${draft.videoCount}`, (v) => (draft.videoCount = Number(v.slice(1)))),
        modelPicker('image-model-picker-button', imageModels, draft.imageModel, (v) => (draft.imageModel = v)),
        modelPicker('video-model-picker-button', videoModels, draft.videoModel, (v) => (draft.videoModel = v)),
        h('div', { class: 'confirm-label' }, t('confirmBefore')),
        confirmRadios(draft.confirm, (v) => (draft.confirm = v)),
        save,
      ),
    ),
  });
  back.addEventListener('click', () => entry.close());
  save.addEventListener('click', async () => {
    save.disabled = true;
    try {
      const reply = await agentPost('settings', { projectId: app.projectId, settings: draft });
      onSaved(reply.settings);
      entry.close();
    } catch {
      snackbar(t('somethingWrong'));
      save.disabled = false;
    }
  });
}

/** A finished tile of the agent-only grid: no media id on it (flow-captures.md §2). */
function agentTile(m) {
  const picture = boot.variants.agentTileSrc === 'asb' ? `/asb/${m.token}` : m.url;
  if (m.kind !== 'video')
    return h('flow-image-tile', { class: 'asset-tile' }, h('img', { src: picture, alt: tileAlt(m.name) }));
  const playable = boot.variants.videoTileSrc === 'asb-redirect' ? `/asb/${m.token}=v` : m.mp4Url;
  const video = h('video', { preload: 'none', muted: true, playsinline: true });
  const tile = h('flow-video-tile', { class: 'asset-tile' }, h('img', { src: picture, alt: tileAlt(m.name) }), video);
  tile.addEventListener('mouseenter', () => {
    if (!video.getAttribute('src')) video.src = playable;
  });
  return tile;
}

export function agentOnlyView(grid, pendingTile) {
  let settings = boot.project.agent;
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
  tune.addEventListener('click', () => openAgentSettings(settings, (saved) => (settings = saved)));

  async function runTurn(message) {
    const turn = await agentPost('turn', { projectId: app.projectId, message });
    agentMessage(chat, turn.reply);
    let answer = { confirm: turn.confirm };
    let tiles = [];
    let ticker = null;
    try {
      while (answer.confirm) {
        const choice = await permissionGate(chat, answer.confirm.text);
        if (choice === 'reject') {
          answer = await agentPost('run', { turnId: turn.turnId, approve: false });
          break;
        }
        if (choice === 'always') settings = { ...settings, confirm: 'never' };
        if (tiles.length === 0) {
          tiles = Array.from({ length: turn.plan.count }, (_, i) => pendingTile(`agent-${turn.turnId}-${i}`));
          const started = Date.now();
          ticker = setInterval(
            () => {
              for (const tile of tiles) {
                const p = tile.querySelector('.loading-percentage') ?? h('div', { class: 'loading-percentage' });
                tile.classList.remove('queued');
                p.textContent = `${Math.min(99, Math.round((Date.now() - started) / Math.max(1, scaled(300))))}%`;
                tile.append(p);
              }
            },
            Math.max(50, scaled(1000)),
          );
        }
        answer = await agentPost('run', { turnId: turn.turnId, approve: true });
      }
      if (turn.confirm === undefined) {
        tiles = Array.from({ length: turn.plan.count }, (_, i) => pendingTile(`agent-${turn.turnId}-${i}`));
        answer = await agentPost('run', { turnId: turn.turnId, approve: true });
      }
    } finally {
      if (ticker) clearInterval(ticker);
    }
    const media = answer.media ?? [];
    media.forEach((m, i) => {
      const finished = agentTile(m);
      if (tiles[i]?.isConnected) tiles[i].replaceWith(finished);
      else grid.prepend(finished);
    });
    for (const tile of tiles.slice(media.length)) tile.remove();
    for (const m of media.filter((x) => x.kind === 'video'))
      chat.append(h('flow-a2ui-video-option', {}, h('img', { src: m.posterUrl, alt: '' })));
    if (answer.reply) agentMessage(chat, answer.reply);
    if (media.some((m) => m.kind === 'image'))
      setTimeout(() => rpc('WuwhI', [message, app.projectId]).catch(() => {}), scaled(18000));
  }

  generate.querySelector('button').addEventListener('click', async () => {
    const message = editor.textContent.trim();
    if (!message) return;
    slot.replaceChildren(stop);
    chat.append(h('div', { class: 'user-turn' }, message));
    editor.replaceChildren(h('p', {}));
    try {
      await runTurn(message);
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
