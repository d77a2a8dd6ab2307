import type { FlowSession } from '@gflow/driver';
import { toGflowError } from '@gflow/errors';
import type { ResolvedProfile } from '../home/profiles.js';
import { type IncidentFacts, recordIncident, recordPageIncident } from '../incidents/recordIncident.js';
import type { RuntimeServices, SessionUse } from './runtimeServices.js';

/** A call's use of a profile's browser, and what an incident bundle says about it (read at the failure). */
export interface FlowSessionUse extends SessionUse {
  readonly facts: () => IncidentFacts;
}

/**
 * The one home of "needs a browser on a profile": the profile's in-process queue, its
 * cross-process lease, the warm or freshly opened session, and an incident bundle for a failure,
 * recorded while the session and its page still exist — from the page the driver photographed
 * (a driver function's own page) or else from the session's. Every operation that drives Flow
 * runs through it; none calls the session pool and the incident recorder by hand.
 */
export function withFlowSession<T>(
  runtime: RuntimeServices,
  profile: ResolvedProfile,
  use: FlowSessionUse,
  fn: (session: FlowSession) => Promise<T>,
): Promise<T> {
  return runtime.sessions.withSession(profile, use, async (session) => {
    try {
      return await fn(session);
    } catch (thrown) {
      throw await withIncident(runtime, session, thrown, use.facts());
    }
  });
}

async function withIncident(
  runtime: RuntimeServices,
  session: FlowSession,
  thrown: unknown,
  facts: IncidentFacts,
): Promise<unknown> {
  const fromPage = await recordPageIncident(runtime, thrown, facts);
  if (fromPage !== thrown) return fromPage;
  const error = toGflowError(thrown);
  if (error.incident === undefined) error.incident = await recordIncident(runtime, session, thrown, error, facts);
  return error;
}
