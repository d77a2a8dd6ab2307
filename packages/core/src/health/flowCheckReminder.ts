import fs from 'node:fs';
import type { HomeLayout } from '../home/homeLayout.js';
import { resolveProfile } from '../home/profiles.js';
import type { ResolvedSettings } from '../settings/loadSettings.js';
import { describeLastCheck, flowCheckIsStale, readFlowCheckRecord } from './flowCheckRecord.js';

/**
 * The line said before a paid run (GFLOW_CLI_FLOW_CHECK_REMINDER) when the profile's last free live
 * check is older than a day or never ran; null otherwise, for a dry run, or when the profile does
 * not resolve (the run itself then says why). Reads one small file; never throws.
 */
export function flowCheckReminder(
  layout: HomeLayout,
  settings: ResolvedSettings,
  input: { readonly profile?: unknown; readonly dry_run?: unknown },
  now: number = Date.now(),
): { readonly profile: string; readonly line: string } | null {
  if (!settings.flowCheckReminder || input.dry_run === true) return null;
  try {
    const requested = typeof input.profile === 'string' ? input.profile : undefined;
    const profile = resolveProfile(layout, { requested, settings });
    if (!fs.existsSync(profile.dir)) return null;
    const last = readFlowCheckRecord(profile.dir).last_check;
    return flowCheckIsStale(last, now)
      ? { profile: profile.name, line: describeLastCheck(profile.name, last, now) }
      : null;
  } catch {
    return null;
  }
}
