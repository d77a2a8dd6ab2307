import { chmod, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ACCOUNT_MARKER, type LoginStrategy, STRATEGY_MARKER } from '@gflow/flow-facts';

/**
 * Writing the profile marker files (flow-wire §2 "Profile"): only after a verified login,
 * owner-only (0600). Their names and readers are Flow facts (@gflow/flow-facts).
 */
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
  await Promise.all([
    rm(join(profileDir, ACCOUNT_MARKER), { force: true }),
    rm(join(profileDir, STRATEGY_MARKER), { force: true }),
  ]);
}
