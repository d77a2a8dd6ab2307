import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The profile marker files (flow-wire §2 "Profile"): `.gflow_account` holds the verified email,
 * `.gflow_browser_strategy` how the profile is opened (`chrome` = the system Chrome channel).
 * The driver writes both only after a verified login, owner-only (0600); these readers are the
 * only ones.
 */
export const ACCOUNT_MARKER = '.gflow_account';
export const STRATEGY_MARKER = '.gflow_browser_strategy';

/** Chrome's cookie stores inside a profile, newest layout first (flow-wire §2 "Profile"). */
export const COOKIE_STORE_PATHS: readonly string[] = [
  join('Default', 'Network', 'Cookies'),
  join('Default', 'Cookies'),
];

export type LoginStrategy = 'chrome' | 'internal';

export interface ProfileMarkers {
  /** The verified email; null when the marker is missing or empty. */
  readonly account: string | null;
  /** The strategy as written; null when the marker is missing or empty. */
  readonly strategy: string | null;
}

const markerText = (text: string): string | null => {
  const trimmed = text.trim();
  return trimmed === '' ? null : trimmed;
};

async function readMarker(profileDir: string, name: string): Promise<string | null> {
  try {
    return markerText(await readFile(join(profileDir, name), 'utf8'));
  } catch {
    return null;
  }
}

function readMarkerSync(profileDir: string, name: string): string | null {
  try {
    return markerText(readFileSync(join(profileDir, name), 'utf8'));
  } catch {
    return null;
  }
}

export async function readProfileMarkers(profileDir: string): Promise<ProfileMarkers> {
  const [account, strategy] = await Promise.all([
    readMarker(profileDir, ACCOUNT_MARKER),
    readMarker(profileDir, STRATEGY_MARKER),
  ]);
  return { account, strategy };
}

export function readProfileMarkersSync(profileDir: string): ProfileMarkers {
  return { account: readMarkerSync(profileDir, ACCOUNT_MARKER), strategy: readMarkerSync(profileDir, STRATEGY_MARKER) };
}

/** The login strategy a strategy marker names; undefined when missing or unknown. */
export function loginStrategyOf(strategy: string | null): LoginStrategy | undefined {
  return strategy === 'chrome' || strategy === 'internal' ? strategy : undefined;
}
