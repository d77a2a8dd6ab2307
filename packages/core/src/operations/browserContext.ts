import type { FlowSession } from '@gflow/driver';
import { type ResolvedProfile, resolveProfile } from '../home/profiles.js';
import type { OperationContext } from '../runtime/operationContext.js';
import { withFlowSession } from '../runtime/flowSessions.js';

type BrowserContext = FlowSession['context'];

/**
 * Runs `fn` with the profile's browser context (the definer `withFlowSession`: the warm session
 * when a daemon has one, otherwise one opened and closed for this call, under the profile's queue
 * and lease, a failure recorded as an incident bundle before the session is released).
 */
export async function withProfileBrowser<T>(
  context: OperationContext,
  profileArg: string | undefined,
  fn: (browser: BrowserContext, profile: ResolvedProfile) => Promise<T>,
): Promise<T> {
  const { runtime } = context;
  const profile = resolveProfile(runtime.layout, { requested: profileArg, settings: runtime.settings });
  return withFlowSession(
    runtime,
    profile,
    {
      signal: context.signal,
      onProgress: context.onProgress,
      facts: () => ({ operation: context.operation ?? 'browser operation' }),
    },
    (session) => fn(session.context, profile),
  );
}
