import type { FlowSession } from '@gflow/driver';
import { type ResolvedProfile, resolveProfile } from '../home/profiles.js';
import { recordPageIncident } from '../incidents/recordIncident.js';

type BrowserContext = FlowSession['context'];
import type { OperationContext } from './operation.js';

/**
 * Runs `fn` with the profile's browser context: the warm session when a
 * daemon has one, otherwise a session opened (and closed) for this call,
 * under the profile's queue and lease like every other browser operation. A failure the driver
 * photographed on its page is recorded as an incident bundle (`error.incident`) before the session
 * is released.
 */
export async function withProfileBrowser<T>(
  context: OperationContext,
  profileArg: string | undefined,
  fn: (browser: BrowserContext, profile: ResolvedProfile) => Promise<T>,
): Promise<T> {
  const { runtime } = context;
  const profile = resolveProfile(runtime.layout, {
    requested: profileArg,
    settings: runtime.settings,
  });
  return runtime.sessions.withSession(
    profile,
    { signal: context.signal, onProgress: context.onProgress },
    async (session) => {
      try {
        return await fn(session.context, profile);
      } catch (thrown) {
        // A driver page photographed at the failure becomes an incident bundle, here, before the
        // session is released: the one home for every operation that drives Flow through a context.
        throw await recordPageIncident(runtime, thrown, { operation: context.operation ?? 'browser operation' });
      }
    },
  );
}
