import {
  AuthExpiredError,
  ConfigurationError,
  FlowAccessUnavailableError,
  FlowAppError,
  FlowHostMigratedError,
  type GflowError,
} from '@gflow/errors';
import { type FlowHostSetting, flowHostKind, flowLandingKind } from './hosts.js';

/**
 * A non-app landing (sign-in, /about, /unavailable, /404?reason=project, another host) must hold
 * this long before it is believed: the app hops client-side after a load, and sign-in hops pass
 * through on their way back.
 */
export const STABLE_LANDING_MS = 3_000;

/** Between looks at a landing that shows no DOM change (a URL that holds still): the stability clock's tick. */
export const LANDING_RECHECK_MS = 250;

/**
 * The error for a page that is not (or no longer) the Flow app, or null when it is.
 * `/about` is FlowAppError, not retryable (measured 5/5 on a live occurrence, seed §errors);
 * sign-in → AuthExpiredError; `/unavailable` → FlowAccessUnavailableError; `/404?reason=project`
 * → ConfigurationError naming the project; a migrated page under the labs kill switch →
 * FlowHostMigratedError (36); labs or another host → FlowHostMigratedError / FlowAppError.
 */
export function landingError(
  url: string,
  flowHost: FlowHostSetting,
  context: { afterSubmit?: boolean } = {},
): GflowError | null {
  const landing = flowLandingKind(url);
  const after =
    context.afterSubmit === true
      ? ' (after the submit click: credits may have been spent; check the Flow project)'
      : '';
  const safeUrl = redactUrl(url);
  if (landing === 'app' && flowHost === 'labs.google' && flowHostKind(url) === 'migrated') {
    return new FlowHostMigratedError(
      `GFLOW_CLI_FLOW_HOST=labs.google, but the page is on flow.google.com (${safeUrl}); the labs driver is retired.`,
      { remediationHint: 'Unset GFLOW_CLI_FLOW_HOST or set it to auto / flow.google.com.' },
    );
  }
  switch (landing) {
    case 'app':
      return null;
    case 'public':
      return new FlowAppError(
        `Flow sent the browser to its public /about page instead of the editor${after}: the profile is signed out, or Google is holding a pending identity re-check.`,
        {
          retryable: false,
          remediationHint:
            'Open https://flow.google.com in Chrome with this profile and complete any "Confirm it\'s you" step; a retry lands on /about again.',
        },
      );
    case 'signin':
      return new AuthExpiredError(`Flow sent the browser to a sign-in page (${safeUrl})${after}.`);
    case 'unavailable':
      return new FlowAccessUnavailableError('This Google account cannot reach Flow (flow.google.com/unavailable).', {
        remediationHint:
          'Flow needs a Google AI Plus/Pro/Ultra or qualifying Workspace plan, an age-verified account and a supported region: https://flow.google.com',
      });
    case 'project-denied':
      return new ConfigurationError(
        'Flow answered /404?reason=project: that project belongs to another account or does not exist.',
        {
          remediationHint: 'Pass a project id owned by this profile, or omit it to create a new project.',
        },
      );
    case 'labs':
      return new FlowHostMigratedError(`The page is on labs.google (${safeUrl}); gflow drives flow.google.com only.`);
    case 'elsewhere':
      return new FlowAppError(
        `The page left Flow for ${safeUrl}${after}.`,
        context.afterSubmit === true ? { retryable: false } : {},
      );
  }
}

/** Origin + path only: queries can carry tokens or emails. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '<unparseable url>';
  }
}
