import type { FlowSession } from '@gflow/driver';
import { type ResolvedProfile, resolveProfile } from '../home/profiles.js';

type BrowserContext = FlowSession['context'];
import type { OperationContext } from './operation.js';

/**
 * Runs `fn` with the profile's browser context: the warm session when a
 * daemon has one, otherwise a session opened (and closed) for this call,
 * under the profile's queue and lease like every other browser operation.
 */
export async function withProfileBrowser<T>(
  context: OperationContext,
  profileArg: string | undefined,
  fn: (browser: BrowserContext, profile: ResolvedProfile) => Promise<T>,
): Promise<T> {
  const { runtime } = context;
  const profile = resolveProfile(runtime.layout, { requested: profileArg, settingProfile: runtime.settings.profile });
  return runtime.sessions.withSession(profile, { signal: context.signal, onProgress: context.onProgress }, (session) =>
    fn(session.context, profile),
  );
}
