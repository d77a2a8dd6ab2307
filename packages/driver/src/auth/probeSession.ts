import { hasErrorCode, isGflowError } from '@gflow/errors';
import { readProfileMarkers } from '@gflow/flow-facts';
import { throwIfAborted } from '../util/abort.js';
import type { DriverLogger } from '../util/logger.js';
import { cookieStoreState } from './cookieChecks.js';
import { headlessLaunchFor, launchProfile } from './launchProfile.js';
import { probeContext } from './probeContext.js';
import type { SessionProbeResult } from './sessionProbeResult.js';

export interface ProbeSessionOptions {
  readonly profileDir: string;
  readonly executablePath?: string;
  readonly channel?: 'chrome';
  readonly extraArgs?: readonly string[];
  readonly ignoreHTTPSErrors?: boolean;
  readonly signal?: AbortSignal;
  readonly logger?: DriverLogger;
  /** Oracle backoff (default 1 s, 2 s). */
  readonly retryDelaysMs?: readonly number[];
  /** Skip the browser-strategy marker check (used right after a login, before the marker exists). */
  readonly skipMarkerCheck?: boolean;
}

/**
 * A credit-free, non-interactive, headless probe of a profile (seed gflow_auth_status): the
 * browser-strategy marker must exist, the cookie store must be readable, then the session is
 * probed in a headless persistent context (see probeContext).
 */
export async function probeSession(options: ProbeSessionOptions): Promise<SessionProbeResult> {
  throwIfAborted(options.signal, 'the session probe');
  const markers = await readProfileMarkers(options.profileDir);
  if (markers.strategy === null && options.skipMarkerCheck !== true) {
    return {
      outcome: 'profile_marker_missing',
      detail:
        'Profile is missing its browser-strategy marker (.gflow_browser_strategy), so gflow cannot tell how to read its cookies.',
    };
  }
  if ((await cookieStoreState(options.profileDir)) === 'unreadable') {
    return {
      outcome: 'cookie_store_unreadable',
      detail: "The profile's Chrome cookie database is corrupt or unreadable.",
    };
  }
  const launch = headlessLaunchFor(options, markers.strategy);
  let context;
  try {
    context = await launchProfile(launch);
  } catch (error) {
    if (isGflowError(error) && hasErrorCode(error, 'cookie-store-unreadable'))
      return { outcome: 'cookie_store_unreadable', detail: error.detail };
    throw error;
  }
  try {
    return await probeContext(context, {
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      ...(options.retryDelaysMs === undefined ? {} : { retryDelaysMs: options.retryDelaysMs }),
    });
  } finally {
    await context.close().catch(() => undefined);
  }
}
