// The settings trigger, the settings pane (radiogroups) and the model menu.
import { app, boot, h, icon, nextToggleId, t } from './dom.js';
import { findPane, openPane } from './overlay.js';

const M = boot.models;
const videoModels = M.video.filter((m) => m.id !== 'veo_lite_lp' || boot.lowerPriority);
// Nano Banana 2.1 replaced Nano Banana 2 in the menu (flow-captures.md §7); never both at once.
const imageModels = M.image.filter((m) => m.id !== (boot.variants.imageMenu === 'nb2' ? 'nb21' : 'nb2'));

export const settings = {
  mode: 'video',
  submode: 'frames',
  videoAspect: '16:9',
  imageAspect: '16:9',
  resolution: '720p',
  duration: 8,
  count: 1,
  videoModel: boot.lowerPriority ? 'veo_lite_lp' : 'veo_lite',
  imageModel: boot.variants.imageMenu === 'nb2' ? 'nb2' : 'nb21',
};

export function currentVideoModel() {
  return M.video.find((m) => m.id === settings.videoModel);
}

export function currentImageModel() {
  return M.image.find((m) => m.id === settings.imageModel);
}

export function imageAspect() {
  return M.imageAspects.find((a) => a.ratio === settings.imageAspect);
}

export function videoAspect() {
  return M.videoAspects.find((a) => a.ratio === settings.videoAspect);
}

/** Credits the current settings would use. */
export function currentCost() {
  if (settings.mode === 'image') return currentImageModel().cost * settings.count;
  const m = currentVideoModel();
  const base = Math.ceil((m.cost * settings.duration) / 8);
  return (settings.resolution === '360p' ? Math.ceil(base / 2) : base) * settings.count;
}

function groups() {
  const out = [
    {
      key: 'mode',
      items: [
        { value: 'image', icon: 'image', label: t('image') },
        { value: 'video', icon: 'videocam', label: t('video') },
      ],
    },
  ];
  if (settings.mode === 'video') {
    out.push({
      key: 'submode',
      items: [
        { value: 'frames', icon: 'crop_free', label: t('frames') },
        { value: 'ingredients', icon: 'chrome_extension', label: t('ingredients') },
      ],
    });
    out.push({
      key: 'videoAspect',
      items: M.videoAspects.map((a) => ({ value: a.ratio, icon: a.icon, label: a.ratio })),
    });
    out.push({
      key: 'resolution',
      items: [
        { value: '360p', label: '360p', after: 'info' },
        { value: '720p', label: '720p' },
      ],
    });
    if (!currentVideoModel().slider)
      out.push({
        key: 'duration',
        items: currentVideoModel().durations.map((d) => ({ value: d, label: t('seconds', { n: d }) })),
      });
  } else {
    out.push({
      key: 'imageAspect',
      items: M.imageAspects.map((a) => ({ value: a.ratio, icon: a.icon, label: a.ratio })),
    });
  }
  out.push({ key: 'count', items: [1, 2, 3, 4].map((n) => ({ value: n, label: `x${n}` })) });
  return out;
}

export function triggerContent() {
  if (settings.mode === 'image')
    return [t('image'), ' · ', currentImageModel().label, ' · ', icon(imageAspect().icon), ` x${settings.count}`];
  return [
    t('video'),
    ` · ${settings.resolution} · `,
    t('seconds', { n: settings.duration }),
    ' ',
    icon(videoAspect().icon),
    ` x${settings.count}`,
  ];
}

let trigger = null;
const changeListeners = new Set();

export function onSettingsChange(fn) {
  changeListeners.add(fn);
}

function changed() {
  if (trigger) trigger.replaceChildren(...triggerContent());
  for (const fn of changeListeners) fn();
}

export function settingsTrigger() {
  // No aria-haspopup on the trigger (test_assets/debug_editor/buttons.json, flow-captures.md §9).
  trigger = h(
    'button',
    { class: 'settings-trigger-button', type: 'button', 'aria-label': t('settingsTrigger') },
    ...triggerContent(),
  );
  trigger.addEventListener('click', () => openSettings(trigger));
  return trigger;
}

function radioGroup(group) {
  const el = h('div', { role: 'radiogroup', class: `mat-button-toggle-group settings-group-${group.key}` });
  for (const item of group.items) {
    const checked = settings[group.key] === item.value;
    const radio = h(
      'button',
      {
        role: 'radio',
        type: 'button',
        class: 'mat-button-toggle-button',
        id: nextToggleId(),
        'aria-checked': checked ? 'true' : 'false',
      },
      item.icon ? icon(item.icon) : null,
      item.label ? h('span', { class: 'mat-button-toggle-label-content' }, item.label) : null,
      item.after ? icon(item.after) : null,
    );
    radio.addEventListener('click', () => {
      settings[group.key] = item.value;
      if (group.key === 'mode' || group.key === 'submode') app.emit('mode');
      // aria-checked is read back a tick later, as on Flow
      setTimeout(() => {
        renderPane();
        changed();
      }, 60);
    });
    el.append(radio);
  }
  return el;
}

let paneEntry = null;

function paneBody() {
  const modelName = settings.mode === 'image' ? currentImageModel().label : currentVideoModel().label;
  const modelBtn = h(
    'button',
    { class: 'model-picker-button', type: 'button', 'aria-haspopup': 'menu' },
    h('span', { class: 'model-name' }, modelName),
    ' ',
    icon('arrow_drop_down'),
  );
  modelBtn.addEventListener('click', () => openModelMenu(modelBtn));
  const cost = currentCost();
  const [before, after] = boot.labels.costLine.split('{n}');
  const rows = groups().map(radioGroup);
  // A slider model's duration row sits where the radios would, before the count row [U].
  if (settings.mode === 'video' && currentVideoModel().slider) rows.splice(rows.length - 1, 0, durationSlider());
  // Under the count row: "Generating will use <b>N</b> credits" (flow-wire §4); the failure switch
  // no_cost_line serves a pane without it [U].
  return h(
    'div',
    { class: 'settings-panel' },
    modelBtn,
    ...rows,
    boot.noCostLine ? null : h('div', { class: 'cost-line' }, before, h('b', {}, String(cost)), after ?? ''),
  );
}

/**
 * Omni 1.2 Flash's duration: a Material slider (`mat-slider` around a native range input) with
 * every integer of the model's durations, 10 s at most without a Google AI plan (seed 000) [U:
 * the slider's DOM was not captured]. Arrow keys move it by one second; the label shows the value.
 */
function durationSlider() {
  const durations = currentVideoModel().durations;
  const max = boot.tier === 'free' ? Math.min(10, durations.at(-1)) : durations.at(-1);
  if (settings.duration > max || settings.duration < durations[0]) settings.duration = Math.min(max, 8);
  const label = h('span', { class: 'mdc-slider__value-indicator-text' }, t('seconds', { n: settings.duration }));
  const input = h('input', {
    type: 'range',
    class: 'mdc-slider__input',
    min: durations[0],
    max,
    step: 1,
    value: settings.duration,
    'aria-valuetext': t('seconds', { n: settings.duration }),
  });
  input.addEventListener('input', () => {
    settings.duration = Number(input.value);
    input.setAttribute('aria-valuetext', t('seconds', { n: settings.duration }));
    label.textContent = t('seconds', { n: settings.duration });
    // The pane is not re-rendered (the slider keeps focus); the trigger and the cost follow.
    if (trigger) trigger.replaceChildren(...triggerContent());
    const cost = document.querySelector('.cost-line b');
    if (cost) cost.textContent = String(currentCost());
  });
  return h('mat-slider', { class: 'mat-mdc-slider mdc-slider settings-duration-slider' }, input, label);
}

function renderPane() {
  if (!paneEntry) return;
  paneEntry.pane.replaceChildren(paneBody());
}

function openSettings(anchor) {
  if (findPane('settings')) return;
  paneEntry = openPane({ name: 'settings', content: paneBody(), anchor, onClose: () => (paneEntry = null) });
}

function openModelMenu(anchor) {
  if (findPane('model-menu')) return;
  const render = () => {
    const items =
      settings.mode === 'image'
        ? imageModels.map((m) => ({
            id: m.id,
            label: m.label,
            glyph: h('span', { class: 'model-glyph banana' }, '🍌'),
          }))
        : videoModels.map((m) => ({ id: m.id, label: m.label, glyph: icon('volume_up') }));
    const current = settings.mode === 'image' ? settings.imageModel : settings.videoModel;
    return h(
      'div',
      { role: 'menu', class: 'mat-mdc-menu-panel model-menu' },
      ...items.map((item) => {
        const el = h(
          'button',
          { role: 'menuitem', type: 'button', class: `mat-mdc-menu-item${item.id === current ? ' selected' : ''}` },
          item.glyph,
          h('span', { class: 'mat-mdc-menu-item-text' }, item.label),
          item.id === current ? icon('check') : null,
        );
        el.addEventListener('click', () => {
          if (settings.mode === 'image') settings.imageModel = item.id;
          else {
            settings.videoModel = item.id;
            const m = currentVideoModel();
            if (!m.durations.includes(settings.duration)) settings.duration = 8;
          }
          // The menu stays open after a switch: closing takes two Escapes (menu, then pane).
          entry.pane.replaceChildren(render());
          setTimeout(() => {
            renderPane();
            changed();
          }, 60);
        });
        return el;
      }),
    );
  };
  const entry = openPane({
    name: 'model-menu',
    content: render(),
    anchor,
    linger: 1500,
    className: 'mat-mdc-menu-panel-pane',
  });
}

export function refreshTrigger() {
  changed();
}
