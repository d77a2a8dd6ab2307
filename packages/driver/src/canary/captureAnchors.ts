import type { Locator } from 'playwright-core';
import type { AnchorRecorder } from './capability.js';

/** One anchor as the capture bundle holds it: its outer HTML with every text and identifying value masked. */
export interface AnchorCapture {
  /** The probe that used it (`settings.pane`). */
  readonly probe: string;
  /** The anchor: its selector, or what the locator is. */
  readonly anchor: string;
  /** How many elements matched. */
  readonly count: number;
  /** The first few matches' masked outer HTML. */
  readonly html: readonly string[];
}

/**
 * Attribute values kept as they are: the structure a driver anchors on (classes, roles, states).
 * Every other value is masked (`…`): ids, labels, alt texts, titles, data values, styles, inputs.
 */
const KEPT_ATTRIBUTES = [
  'class',
  'role',
  'type',
  'tabindex',
  'hidden',
  'disabled',
  'contenteditable',
  'aria-checked',
  'aria-pressed',
  'aria-selected',
  'aria-disabled',
  'aria-expanded',
  'aria-haspopup',
  'aria-hidden',
  'aria-live',
  'aria-orientation',
  'data-reference-type',
  'data-slot',
  'data-mat-icon-type',
];

/** Attributes holding URLs: reduced to their origin and first path segment (`https://flow-content.google/image/…`). */
const URL_ATTRIBUTES = ['src', 'href', 'poster', 'srcset', 'action', 'formaction'];

const MASK = { max: 3, maxChars: 20_000, keep: KEPT_ATTRIBUTES, urls: URL_ATTRIBUTES };

/** At most this many anchors per bundle (a bound on its size). */
const MAX_ANCHORS = 80;

/**
 * The masked outer HTML of the first matches of `locator`, made in the page on a clone: every
 * text node's letters become `x` and its symbols `_` (digits, spaces and `: . , %` stay, so
 * `8s`, `x2`, `16:9` keep their form) except a Material ligature (`arrow_forward`), which is an
 * anchor; comments are dropped; attribute values are masked unless structural (KEPT_ATTRIBUTES);
 * URLs keep only their origin and first path segment. No prompt, name, email, id, token or media
 * URL survives it.
 */
export async function maskedHtml(locator: Locator): Promise<{ count: number; html: string[] }> {
  const html = await locator.evaluateAll((els, o) => {
    // No named inner functions: this text runs in the page (pageFunctions.test.ts).
    return els.slice(0, o.max).map((el) => {
      const clone = el.cloneNode(true) as Element;
      const walker = document.createTreeWalker(
        clone,
        NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT | NodeFilter.SHOW_COMMENT,
      );
      const nodes: Node[] = [clone];
      for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) nodes.push(n);
      for (const node of nodes) {
        if (node.nodeType === Node.COMMENT_NODE) {
          node.parentNode?.removeChild(node);
        } else if (node.nodeType === Node.TEXT_NODE) {
          const text = node.textContent ?? '';
          const parent = node.parentElement;
          const ligature =
            parent !== null && parent.tagName === 'MAT-ICON' && /^\s*[a-z][a-z0-9_]{0,40}\s*$/.test(text);
          if (!ligature) node.textContent = text.replace(/\p{L}/gu, 'x').replace(/[^\sx0-9:.,%]/gu, '_');
        } else {
          const element = node as Element;
          for (const attr of Array.from(element.attributes)) {
            const name = attr.name.toLowerCase();
            if (o.keep.includes(name) || attr.value === '') continue;
            let shown = '…';
            if (o.urls.includes(name)) {
              try {
                const url = new URL(attr.value, location.href);
                const first = url.pathname.split('/')[1] ?? '';
                const segment = /^[a-z][a-z0-9_-]{0,30}$/i.test(first) ? first : '…';
                const origin = url.origin === location.origin ? '' : url.origin;
                shown =
                  url.protocol === 'https:' || url.protocol === 'http:' ? `${origin}/${segment}/…` : `${url.protocol}…`;
              } catch {
                shown = '…';
              }
            }
            element.setAttribute(attr.name, shown);
          }
        }
      }
      const out = clone.outerHTML;
      return out.length > o.maxChars ? `${out.slice(0, o.maxChars)}<!-- clipped -->` : out;
    });
  }, MASK);
  return { count: await locator.count(), html };
}

/** A recorder that adds each anchor (once per probe and anchor) to `into`. */
export function anchorRecorder(into: AnchorCapture[]): (probe: string) => AnchorRecorder {
  return (probe) => async (anchor, locator) => {
    if (into.length >= MAX_ANCHORS || into.some((a) => a.probe === probe && a.anchor === anchor)) return;
    const { count, html } = await maskedHtml(locator).catch(() => ({ count: 0, html: [] as string[] }));
    into.push({ probe, anchor, count, html });
  };
}

/** Records nothing (a check without `--capture`). */
export const NO_RECORDER: (probe: string) => AnchorRecorder = () => async () => undefined;
