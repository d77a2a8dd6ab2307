import { chmod, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The profile marker files (flow-wire §2 "Profile"): `.gflow_account` holds the verified email,
 * `.gflow_browser_strategy` how the profile is opened (`chrome` = the system Chrome channel).
 * Both are written only after a verified login, owner-only (0600).
 */
export const ACCOUNT_MARKER = '.gflow_account';
export const STRATEGY_MARKER = '.gflow_browser_strategy';

export type LoginStrategy = 'chrome' | 'internal';

export interface ProfileMarkers {
  readonly account: string | null;
  readonly strategy: string | null;
}

async function readMarker(profileDir: string, name: string): Promise<string | null> {
  try {
    const text = (await readFile(join(profileDir, name), 'utf8')).trim();
    return text === '' ? null : text;
  } catch {
    return null;
  }
}

export async function readProfileMarkers(profileDir: string): Promise<ProfileMarkers> {
  const [account, strategy] = await Promise.all([readMarker(profileDir, ACCOUNT_MARKER), readMarker(profileDir, STRATEGY_MARKER)]);
  return { account, strategy };
}

async function writeOwnerOnly(path: string, text: string): Promise<void> {
  await writeFile(path, `${text}\n`, { encoding: 'utf8', mode: 0o600 });
  await chmod(path, 0o600);
}

/** Writes both markers after a verified login. */
export async function writeProfileMarkers(profileDir: string, email: string, strategy: LoginStrategy): Promise<void> {
  await writeOwnerOnly(join(profileDir, ACCOUNT_MARKER), email);
  await writeOwnerOnly(join(profileDir, STRATEGY_MARKER), strategy);
}

/** Removes both markers (a failed first login leaves none behind). */
export async function removeProfileMarkers(profileDir: string): Promise<void> {
  await Promise.all([rm(join(profileDir, ACCOUNT_MARKER), { force: true }), rm(join(profileDir, STRATEGY_MARKER), { force: true })]);
}

/**
 * The profile name a first login gives the `default` profile: the email's local part, reduced to
 * characters a profile name may hold.
 */
export function accountLocalPart(email: string): string {
  const local = (email.split('@')[0] ?? '').toLowerCase();
  const clean = local.replace(/[^a-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '');
  return clean === '' ? 'default' : clean;
}
