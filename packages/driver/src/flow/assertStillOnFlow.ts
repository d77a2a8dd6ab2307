import type { Page } from 'playwright-core';
import type { FlowHostSetting } from './hosts.js';
import { landingError } from './landingError.js';

/**
 * Re-checks the page's URL at a blocking point (flow-wire §1 `raise_if_migrated`): throws the
 * landing's error when the page has hopped to /about, a sign-in page, /unavailable, labs or
 * another host.
 */
export function assertStillOnFlow(
  page: Page,
  flowHost: FlowHostSetting = 'auto',
  context: { afterSubmit?: boolean } = {},
): void {
  const err = landingError(page.url(), flowHost, context);
  if (err !== null) throw err;
}
