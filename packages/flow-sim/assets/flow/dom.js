// Small DOM and boot helpers shared by the Flow page modules.
export const boot = window.__flowBoot;
export const wiz = window.WIZ_global_data;

export function t(key, vars = {}) {
  let s = boot.labels[key] ?? key;
  for (const [k, v] of Object.entries(vars)) s = s.replace(`{${k}}`, String(v));
  return s;
}

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    if (k === 'class') el.className = v;
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function icon(name) {
  return h(
    'mat-icon',
    { class: 'mat-icon notranslate material-symbols-outlined', 'aria-hidden': 'true', 'data-mat-icon-type': 'font' },
    name,
  );
}

/** Flow's measured timings, scaled by the simulator's latency setting. */
export function scaled(ms) {
  return Math.max(0, Math.round(ms * boot.latencyScale));
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

let toggleCounter = 7;
/** mat-button-toggle ids are not stable across renders, as measured. */
export function nextToggleId() {
  toggleCounter += 1;
  return `mat-button-toggle-${toggleCounter}-button`;
}

export function uuid() {
  return crypto.randomUUID();
}

export function formatNumber(n) {
  return new Intl.NumberFormat(boot.locale).format(n);
}

export async function downloadBlob(blob, fileName) {
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: fileName, style: 'display:none' });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Shared app state of one editor load. */
export const app = {
  credits: boot.credits,
  projectId: boot.project ? boot.project.id : null,
  termsAccepted: boot.uploadTermsAccepted,
  listeners: new Set(),
  emit(event) {
    for (const l of this.listeners) l(event);
  },
};
