import { CancelledError, isGflowError, toErrorEnvelopeBody } from '@gflow/errors';
import { readProfileMarkers } from '@gflow/flow-facts';
import { z } from 'zod';
import { listProfileNames, resolveProfile } from '../home/profiles.js';
import { withProfileBrowser } from './browserContext.js';
import { profileParam } from '../schemas/params.js';
import { defineOperation } from './operation.js';

export const authRenew = defineOperation({
  name: 'authRenew',
  mcpName: 'gflow_auth_renew',
  title: 'Renew the Flow session',
  description:
    "Re-establishes the profile's Flow session headlessly when Google allows it, and says when a human must sign in again. Spends nothing.",
  kind: 'mutate',
  usesBrowser: true,
  surfaces: ['cli', 'library'],
  input: z.object({ profile: profileParam }),
  output: z.looseObject({ status: z.string(), profile: z.string() }),
  handler: async (input, context) => {
    const { renewInContext } = await import('@gflow/driver');
    return withProfileBrowser(context, input.profile, async (browser, profile) => {
      const result = await renewInContext(browser, { signal: context.signal });
      return result.outcome === 'renewed'
        ? { status: 'renewed', profile: profile.name, user_email: result.email }
        : { status: 'needs_human', profile: profile.name, reason: result.reason, detail: result.detail };
    });
  },
});

export const getCredits = defineOperation({
  name: 'getCredits',
  mcpName: 'gflow_get_credits',
  title: 'Read the credit balance',
  description:
    "The Flow credit balance the app itself loads, read in the profile's browser (one browser launch per profile; spends nothing). all_profiles=true reads every saved profile in turn and keeps the successful balances plus total_credits when one fails. refresh=true renews a session that landed on a sign-in page, headlessly, and reads again. The balance funds video; images use separate daily quotas. Tier fields are always null.",
  kind: 'read',
  usesBrowser: true,
  // refresh=true renews an expired session: it rewrites that profile's saved cookies.
  hints: { writesLocalState: true },
  input: z.object({
    profile: profileParam,
    all_profiles: z.boolean().default(false),
    refresh: z
      .boolean()
      .default(false)
      .describe("Renew an expired session headlessly and read again (rewrites that profile's saved cookies)."),
  }),
  output: z.looseObject({ status: z.string() }),
  handler: async (input, context) => {
    const { readCredits, renewInContext } = await import('@gflow/driver');
    const readOne = (profileName: string) =>
      withProfileBrowser(context, profileName, async (browser, profile) => {
        try {
          return {
            profile: profile.name,
            authenticated: true,
            ...(await readCredits(browser, { signal: context.signal })),
          };
        } catch (error) {
          if (!input.refresh || !isGflowError(error) || !error.is('auth-expired')) throw error;
          const renewed = await renewInContext(browser, { signal: context.signal });
          if (renewed.outcome !== 'renewed') throw error;
          return {
            profile: profile.name,
            authenticated: true,
            refreshed: true,
            ...(await readCredits(browser, { signal: context.signal })),
          };
        }
      });
    if (!input.all_profiles) return { status: 'ok', ...(await readOne(input.profile)) };
    const names = listProfileNames(context.runtime.layout);
    const profiles: Array<Record<string, unknown>> = [];
    for (const name of names) {
      try {
        profiles.push(await readOne(name));
      } catch (error) {
        if (isGflowError(error) && error.is('cancelled')) throw error;
        if (context.signal.aborted) throw new CancelledError('Cancelled while reading credits.');
        profiles.push({ profile: name, authenticated: false, credits: null, error: toErrorEnvelopeBody(error) });
      }
    }
    const total = profiles.reduce((sum, p) => sum + (typeof p['credits'] === 'number' ? p['credits'] : 0), 0);
    return { status: 'ok', profiles, total_credits: total, count: profiles.length };
  },
});

export const authStatus = defineOperation({
  name: 'authStatus',
  mcpName: 'gflow_auth_status',
  title: 'Check the Flow session',
  description:
    'Credit-free, non-interactive probe of the profile\'s Flow session (the browser reads the session endpoints; nothing is generated). Returns {status:"authenticated", profile, user_email} or an error with a remediation_hint: verification-error (503, retryable: a network problem that re-login does not fix), profile-marker-missing (409), cookie-store-unreadable (409) or a dead session (401). Call it before a long generation to fail fast on dead auth.',
  kind: 'read',
  usesBrowser: true,
  input: z.object({ profile: profileParam }),
  output: z.looseObject({ status: z.string(), profile: z.string() }),
  handler: async (input, context) => {
    const { runtime } = context;
    const { cookieStoreState, probeContext, sessionProbeError } = await import('@gflow/driver');
    const profile = resolveProfile(runtime.layout, {
      requested: input.profile,
      settings: runtime.settings,
    });
    const markers = await readProfileMarkers(profile.dir);
    const early =
      markers.strategy === null
        ? sessionProbeError({
            outcome: 'profile_marker_missing',
            detail: 'The profile has no .gflow_browser_strategy marker, so its cookies cannot be read.',
          })
        : (await cookieStoreState(profile.dir)) === 'unreadable'
          ? sessionProbeError({
              outcome: 'cookie_store_unreadable',
              detail: "The profile's cookie database is corrupt or unreadable.",
            })
          : null;
    if (early) throw early;
    const result = await withProfileBrowser(context, profile.name, (browser) =>
      // An unreachable session endpoint is thrown on the probe's page, which is photographed (the incident bundle).
      probeContext(browser, {
        signal: context.signal,
        failAs: (probe) => (probe.outcome === 'verification_error' ? sessionProbeError(probe) : null),
      }),
    );
    if (result.outcome !== 'authenticated') {
      throw sessionProbeError(result) ?? new Error(`unexpected probe outcome ${result.outcome}`);
    }
    runtime.catalog.profiles.touch(profile.name, profile.dir);
    return { status: 'authenticated', profile: profile.name, user_email: result.email };
  },
});
