import { redactAndClip, redactText } from '@gflow/errors';
import type { TappedFailure, TappedRequest, TappedResponse } from './wireTap.js';

/**
 * What the driver can tell a human about a failed operation: the page it used (URL, title, the
 * flow-wire §4 anchors, a screenshot) and the batchexecute traffic of that operation. Everything
 * but the screenshot is redacted here; the screenshot may show private content.
 */
export interface IncidentSnapshot {
  /** The operation that failed, e.g. `generating an image`; null when none ran on this session. */
  readonly operation: string | null;
  readonly capturedAt: string;
  /** True when taken at the failure, before the driver tidied the page (Escape). */
  readonly atFailure: boolean;
  /** The page URL, redacted (signed query strings and tokens removed). */
  readonly url: string | null;
  readonly title: string | null;
  readonly ui: UiAnchors | null;
  readonly network: readonly NetworkEntry[];
  /** A full-page PNG, or null when it could not be taken. */
  readonly screenshot: Buffer | null;
  /** What could not be captured, and why (redacted). */
  readonly problems: readonly string[];
}

/** Counts of the key DOM anchors (flow-wire §4) on the page at capture time. */
export interface UiAnchors {
  /** Count per anchor name (see UI_ANCHORS). */
  readonly counts: Readonly<Record<string, number>>;
  /** Whether `.settings-trigger-button` carries a `hidden` attribute; null when absent. */
  readonly settingsTriggerHidden: boolean | null;
  /** `button.agent-mode-chip`'s `aria-pressed`; null when absent. */
  readonly agentModeChipPressed: boolean | null;
}

/** One batchexecute call of the failed operation. No bodies beyond a clipped, redacted head. */
export interface NetworkEntry {
  readonly seq: number;
  readonly rpcIds: readonly string[];
  /** Origin and path only (the query carries session ids). */
  readonly endpoint: string;
  readonly startedAt: string;
  readonly durationMs: number | null;
  readonly status: number | null;
  readonly outcome: 'ok' | 'http-error' | 'failed' | 'pending';
  readonly errorText: string | null;
  /** The calls' inner JSON, redacted and clipped. */
  readonly requestHead: string;
  /** The reply's items (kind, rpc id, payload head, error slot), redacted and clipped; null without a reply. */
  readonly responseHead: string | null;
}

/** The anchors ui.json counts, by name → CSS selector. */
export const UI_ANCHORS: Readonly<Record<string, string>> = {
  'aisandbox-root': 'aisandbox-root',
  'flow-prompt-box': 'flow-prompt-box',
  '.settings-trigger-button': '.settings-trigger-button',
  'button.agent-mode-chip': 'button.agent-mode-chip',
  "[role='dialog']": "[role='dialog']",
  '.cdk-overlay-pane': '.cdk-overlay-pane',
  "[role='menu']": "[role='menu']",
  'button.prompt-warning-button': 'button.prompt-warning-button',
  "[contenteditable='true']": "[contenteditable='true']",
  'flow-agent-panel': 'flow-agent-panel',
  'tiles [data-media-id]': '[data-media-id]',
  '.mention-chip': '.mention-chip',
  'cookie bar': '#glue-cookie-notification-bar-1, .glue-cookie-notification-bar',
};

/** Buttons counted by their Material Symbols ligature, by name → ligature text. */
export const LIGATURE_ANCHORS: Readonly<Record<string, string>> = {
  'submit (arrow_forward)': 'arrow_forward',
  'toolbar + (add)': 'add',
};

/** At most this many network entries are kept (the last ones: a video poll can run long). */
export const MAX_NETWORK_ENTRIES = 200;
const HEAD_CHARS = 300;

/** A page URL without secrets: signed query strings and tokens redacted. */
export function redactPageUrl(url: string): string {
  return redactText(url);
}

function endpointOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return redactAndClip(url.split('?')[0] ?? '', 200);
  }
}

function responseHead(response: TappedResponse): string | null {
  if (response.envelope === null) return null;
  const parts = response.envelope.items.map((item) => {
    const error = item.error === null || item.error === undefined ? '' : ` error=${JSON.stringify(item.error)}`;
    return `${item.kind} ${item.rpcId}${error} ${item.payloadText ?? 'null'}`;
  });
  if (response.envelope.brokenLines > 0) parts.push(`(${response.envelope.brokenLines} broken lines)`);
  return redactAndClip(parts.join('\n'), HEAD_CHARS);
}

/**
 * The rpc log of one operation from its wire tap: each request paired with its reply (or its
 * failure) by the underlying request, with timing and a redacted head. Pure.
 */
export function networkLog(
  requests: readonly TappedRequest[],
  responses: readonly TappedResponse[],
  failures: readonly TappedFailure[],
  max = MAX_NETWORK_ENTRIES,
): NetworkEntry[] {
  const entries = requests.map((request): NetworkEntry => {
    const response = responses.find((r) => r.request === request.request);
    const failure = failures.find((f) => f.request === request.request);
    const endedAt = response?.at ?? failure?.at ?? null;
    const status = response?.status ?? null;
    return {
      seq: request.seq,
      rpcIds: [...request.rpcIds],
      endpoint: endpointOf(request.request.url()),
      startedAt: new Date(request.at).toISOString(),
      durationMs: endedAt === null ? null : Math.max(0, endedAt - request.at),
      status,
      outcome: response ? (status !== null && status >= 400 ? 'http-error' : 'ok') : failure ? 'failed' : 'pending',
      errorText: failure ? redactAndClip(failure.errorText, 200) : null,
      requestHead: redactAndClip(request.calls.map((c) => `${c.rpcId} ${c.innerJson}`).join('\n'), HEAD_CHARS),
      responseHead: response ? responseHead(response) : null,
    };
  });
  return entries.slice(-max);
}
