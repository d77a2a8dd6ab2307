// Drift switches in the page (src/drift.ts): the anchors a driver uses renamed as the app renders
// them, and reshaped replies unwrapped for the app's own code. A test switch, not Flow behaviour.
import { boot } from './dom.js';

const drift = boot.drift ?? { rules: [], replies: [] };

function inScope(el, rule) {
  return rule.within === undefined || el.closest(rule.within) !== null;
}

function rewrite(el, rule) {
  if (!(el instanceof Element) || !inScope(el, rule)) return;
  if (rule.kind === 'renameClass' && el.classList.contains(rule.from)) el.classList.replace(rule.from, rule.to);
  else if (rule.kind === 'renameRole' && el.getAttribute('role') === rule.from) el.setAttribute('role', rule.to);
  else if (rule.kind === 'renameLigature' && el.tagName === 'MAT-ICON' && el.textContent.trim() === rule.from)
    el.textContent = rule.to;
}

function sweep(root) {
  if (!(root instanceof Element)) return;
  for (const rule of drift.rules) {
    rewrite(root, rule);
    for (const el of root.querySelectorAll('*')) rewrite(el, rule);
  }
}

/** Rewrites every anchor a switch renames, now and whenever the app renders one (before anything reads it). */
export function installDrift() {
  if (drift.rules.length === 0) return;
  sweep(document.documentElement);
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'childList')
        for (const node of record.addedNodes) sweep(node instanceof Element ? node : record.target);
      else sweep(record.type === 'characterData' ? record.target.parentElement : record.target);
    }
  }).observe(document.documentElement, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
    attributeFilter: ['class', 'role'],
  });
}

/** A reply payload as the app's own code reads it: a reshaped one is unwrapped (Flow ships its reader with its reply). */
export function unwrapReply(rpcId, payload) {
  if (!drift.replies.includes(rpcId) || payload === null || typeof payload !== 'object') return payload;
  return 'results' in payload ? payload.results : payload;
}
