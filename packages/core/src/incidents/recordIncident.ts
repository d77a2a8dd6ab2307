import type { FlowSession, IncidentSnapshot } from '@gflow/driver';
import { type ErrorCode, type GflowError, type IncidentRef, hasErrorCode, toGflowError } from '@gflow/errors';
import type { Logger } from '../runtime/logger.js';
import { pruneIncidents } from './pruneIncidents.js';
import { newIncidentId, writeIncidentBundle } from './writeIncidentBundle.js';

/** What core knows about the runtime when a browser operation fails. */
export interface IncidentHost {
  readonly settings: {
    readonly incidentCapture: boolean;
    readonly home: string;
    readonly outputDir: string;
    /** How gflow launches the browser (browser.json); absent in hosts that do not launch one. */
    readonly browserExecutable?: string | undefined;
    readonly headless?: boolean;
    readonly browserArgs?: readonly string[];
  };
  readonly layout: { readonly incidentsDir: string };
  readonly logger: Logger;
  /** What whoever opened the runtime added to the launch (the sandbox: headless, its arguments). */
  readonly browserOverrides?: { readonly headless?: boolean; readonly extraArgs?: readonly string[] };
}

/** What the caller knows about the failed operation (read at the failure). */
export interface IncidentFacts {
  readonly operation: string;
  readonly taskId?: string;
  readonly phase?: string | null;
  readonly mayHaveSpent?: boolean;
}

/** Where a failure's page snapshot comes from: a driver session, or a driver function's own page. */
export type IncidentSource = Pick<FlowSession, 'failedInOperation' | 'captureIncident'>;

/** Never a bundle: nothing went wrong in the page (a cancellation, a credit budget's refusal) or there is no page left. */
const NEVER: readonly ErrorCode[] = ['cancelled', 'browser-session-closed', 'budget-exceeded'];
/** Raised by core around the browser (a catalog lookup, a local file, a setting) unless the driver raised it. */
const LOCAL: readonly ErrorCode[] = [
  'usage',
  'reference-not-found',
  'configuration',
  'data-store',
  'security',
  'queue-schema',
  'batch-integrity',
];

/** Whether a failure inside a browser session deserves a bundle: the driver's, or one around it that is not local. */
export function isBrowserFailure(error: GflowError, raisedByDriver: boolean): boolean {
  if (NEVER.some((code) => hasErrorCode(error, code))) return false;
  return raisedByDriver || !LOCAL.some((code) => hasErrorCode(error, code));
}

/**
 * Captures a bundle for a failure inside a browser session, while the session and its page still
 * exist, and prunes the oldest bundles. Never throws: the outcome is the capture_status.
 */
export async function recordIncident(
  host: IncidentHost,
  session: IncidentSource,
  thrown: unknown,
  error: GflowError,
  facts: IncidentFacts,
): Promise<IncidentRef> {
  const id = newIncidentId();
  const log = {
    incident_id: id,
    operation: facts.operation,
    code: error.code,
    ...(facts.taskId ? { task_id: facts.taskId } : {}),
  };
  if (!isBrowserFailure(error, session.failedInOperation(thrown))) return { id, capture_status: 'skipped' };
  if (!host.settings.incidentCapture) return { id, capture_status: 'disabled' };
  const snapshot = await session.captureIncident(thrown);
  if (snapshot === null) {
    host.logger.info('incident not captured: the page is gone', log);
    return { id, capture_status: 'skipped' };
  }
  let dir: string;
  try {
    dir = await writeIncidentBundle({
      incidentsDir: host.layout.incidentsDir,
      id,
      operation: facts.operation,
      error,
      snapshot,
      phase: facts.phase ?? null,
      mayHaveSpent: facts.mayHaveSpent === true,
      taskId: facts.taskId,
      redactPaths: [host.settings.outputDir, host.settings.home],
      browser:
        host.settings.headless === undefined
          ? null
          : {
              executable: host.settings.browserExecutable ?? null,
              headless: host.browserOverrides?.headless ?? host.settings.headless,
              args: [...(host.settings.browserArgs ?? []), ...(host.browserOverrides?.extraArgs ?? [])],
            },
    });
  } catch (failure) {
    host.logger.warn('incident bundle could not be written', {
      ...log,
      error: failure instanceof Error ? failure.message : String(failure),
    });
    return { id, capture_status: 'failed' };
  }
  host.logger.info('incident captured', { ...log, dir });
  await pruneIncidents(host.layout.incidentsDir, { keep: dir }).catch((failure: unknown) => {
    host.logger.warn('incident bundles could not be pruned', {
      error: failure instanceof Error ? failure.message : String(failure),
    });
  });
  return { id, capture_status: 'captured' };
}

/**
 * Runs `fn` (the body of a `sessions.withSession` callback). A failure gets an incident captured
 * before the session is released, attached as `error.incident` ({id, capture_status} only).
 */
export async function withIncidentCapture<T>(
  host: IncidentHost,
  session: IncidentSource,
  facts: () => IncidentFacts,
  fn: () => Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } catch (thrown) {
    const error = toGflowError(thrown);
    if (error.incident === undefined) error.incident = await recordIncident(host, session, thrown, error, facts());
    throw error;
  }
}

/**
 * A failure of a driver function that ran on a page of its own (the driver's withScratchPage, e.g.
 * the instruction cards): when the driver photographed that page at the failure, the bundle is
 * recorded from that snapshot and the error answered with `incident` set; otherwise `thrown` as it
 * was (nothing was seen in a page, so there is nothing to bundle).
 */
export async function recordPageIncident(host: IncidentHost, thrown: unknown, facts: IncidentFacts): Promise<unknown> {
  const { pageSnapshotOf } = await import('@gflow/driver');
  const snapshot: IncidentSnapshot | null = pageSnapshotOf(thrown);
  if (snapshot === null) return thrown;
  const error = toGflowError(thrown);
  if (error.incident !== undefined) return error;
  const source: IncidentSource = { failedInOperation: () => true, captureIncident: () => Promise.resolve(snapshot) };
  error.incident = await recordIncident(host, source, thrown, error, facts);
  return error;
}
