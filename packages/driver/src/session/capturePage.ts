import type { Page } from 'playwright-core';
import { redactAndClip } from '@gflow/errors';
import {
  type IncidentSnapshot,
  LIGATURE_ANCHORS,
  UI_ANCHORS,
  type UiAnchors,
  networkLog,
  redactPageUrl,
} from './incidentSnapshot.js';
import type { WireTap } from './wireTap.js';

/** The page and wire tap of the operation that ran last on a session. */
export interface LastOperation {
  readonly what: string;
  readonly page: Page;
  readonly tap: WireTap;
}

export interface CaptureBudget {
  /** Budget for the DOM read and the title (default 3 s). */
  readonly domMs?: number;
  /** Budget for the full-page screenshot (default 8 s). */
  readonly screenshotMs?: number;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function reason(error: unknown): string {
  return redactAndClip((error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '', 200);
}

/** Counts the anchors inside the page (runs in the browser; no page script is trusted). */
function readAnchors(page: Page): Promise<UiAnchors> {
  return page.evaluate(
    ({ anchors, ligatures }) => {
      const counts: Record<string, number> = {};
      for (const [name, selector] of Object.entries(anchors)) counts[name] = document.querySelectorAll(selector).length;
      const icons = [...document.querySelectorAll('button mat-icon')];
      for (const [name, text] of Object.entries(ligatures)) {
        counts[name] = new Set(
          icons.filter((i) => i.textContent?.trim() === text).map((i) => i.closest('button')),
        ).size;
      }
      const trigger = document.querySelector('.settings-trigger-button');
      const chip = document.querySelector('button.agent-mode-chip');
      return {
        counts,
        settingsTriggerHidden: trigger === null ? null : trigger.hasAttribute('hidden'),
        agentModeChipPressed: chip === null ? null : chip.getAttribute('aria-pressed') === 'true',
      };
    },
    { anchors: UI_ANCHORS, ligatures: LIGATURE_ANCHORS },
  );
}

/**
 * Photographs the page an operation used and reads its anchors and rpc log. Never throws: what
 * could not be read is null and named in `problems`.
 */
export async function capturePage(
  last: LastOperation,
  atFailure: boolean,
  budget: CaptureBudget = {},
): Promise<IncidentSnapshot> {
  const problems: string[] = [];
  const { page, tap } = last;
  let network: IncidentSnapshot['network'] = [];
  try {
    network = networkLog(tap.requests, tap.responses, tap.failures);
  } catch (error) {
    problems.push(`network: ${reason(error)}`);
  }
  const base = { operation: last.what, capturedAt: new Date().toISOString(), atFailure, network };
  if (page.isClosed()) {
    return {
      ...base,
      url: null,
      title: null,
      ui: null,
      screenshot: null,
      problems: [...problems, 'page: closed before the capture'],
    };
  }
  let url: string | null = null;
  try {
    url = redactPageUrl(page.url());
  } catch (error) {
    problems.push(`url: ${reason(error)}`);
  }
  const domMs = budget.domMs ?? 3_000;
  const [title, ui] = await Promise.all([
    withTimeout(page.title(), domMs, 'the title').catch((error: unknown) => {
      problems.push(`title: ${reason(error)}`);
      return null;
    }),
    withTimeout(readAnchors(page), domMs, 'the anchor count').catch((error: unknown) => {
      problems.push(`ui: ${reason(error)}`);
      return null;
    }),
  ]);
  const screenshotMs = budget.screenshotMs ?? 8_000;
  const screenshot = await withTimeout(
    page.screenshot({ fullPage: true, type: 'png', timeout: screenshotMs, animations: 'disabled' }),
    screenshotMs + 1_000,
    'the screenshot',
  ).catch((error: unknown) => {
    problems.push(`screenshot: ${reason(error)}`);
    return null;
  });
  return { ...base, url, title: title === null ? null : redactAndClip(title, 300), ui, screenshot, problems };
}
