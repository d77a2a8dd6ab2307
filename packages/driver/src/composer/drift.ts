import type { Page } from 'playwright-core';
import { UiSelectorDriftError } from '@gflow/errors';

/**
 * A post-mortem of why a control could not be used (flow-wire §6): not rendered, a bare `hidden`
 * attribute, zero size, covered by another element, disabled, `body{pointer-events:none}`.
 */
export async function postMortem(page: Page, selector: string): Promise<string> {
  try {
    return await page.evaluate((sel) => {
      let el: Element | null = null;
      try {
        el = sel.startsWith('xpath=')
          ? (document.evaluate(sel.slice(6), document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null)
              .singleNodeValue as Element | null)
          : document.querySelector(sel);
      } catch {
        return 'the selector does not parse here';
      }
      if (el === null) return 'not rendered';
      if (el.hasAttribute('hidden')) return 'present with a bare hidden attribute';
      if ((el as HTMLButtonElement).disabled === true || el.getAttribute('aria-disabled') === 'true') return 'disabled';
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) return 'rendered with zero size';
      if (getComputedStyle(document.body).pointerEvents === 'none') return 'body{pointer-events:none}';
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (hit === null) return 'no hit-test at its centre (off screen?)';
      if (hit !== el && !el.contains(hit)) {
        const cls =
          typeof hit.className === 'string' ? hit.className.split(/\s+/).filter(Boolean).slice(0, 2).join('.') : '';
        return `covered by <${hit.tagName.toLowerCase()}${cls ? `.${cls}` : ''}>`;
      }
      return 'visible and hit-testable (perhaps still moving)';
    }, selector);
  } catch {
    return 'page unavailable for a post-mortem';
  }
}

export async function driftError(
  page: Page,
  what: string,
  selector: string,
  options: { retryable?: boolean; cause?: unknown } = {},
): Promise<UiSelectorDriftError> {
  const why = await postMortem(page, selector);
  return new UiSelectorDriftError(`${what}: \`${selector}\` — ${why}.`, {
    ...(options.cause === undefined ? {} : { cause: options.cause }),
    ...(options.retryable === undefined ? {} : { retryable: options.retryable }),
  });
}
