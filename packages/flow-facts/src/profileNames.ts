import { BadParameterError, SecurityError } from '@gflow/errors';

/**
 * The one profile-name rule. Profiles are plain names, never paths: an MCP client may be steered
 * by untrusted content, so a name that could reach outside the home is a SecurityError (exit 13);
 * any other malformed name is a usage error (exit 2). An email address is a plain name
 * (`bob@example.com` is accepted everywhere: core, the catalog, the lease and the driver).
 */
export const PROFILE_NAME_RULE = '1–64 letters, digits, ".", "_", "@", "+" or "-", starting with a letter or digit';

const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}$/;

export type ProfileNameVerdict = 'plain' | 'path' | 'malformed';

/** What a profile name is: a plain name, something that looks like a path, or malformed. */
export function profileNameVerdict(name: string): ProfileNameVerdict {
  const looksLikePath =
    /[/\\]/.test(name) || name.includes('..') || name === '.' || name.includes('\0') || /^[A-Za-z]:/.test(name);
  if (looksLikePath) return 'path';
  return PLAIN_NAME.test(name) ? 'plain' : 'malformed';
}

export function isProfileName(name: string): boolean {
  return profileNameVerdict(name) === 'plain';
}

/** Returns the name when it is plain; SecurityError (13) for a path, BadParameterError (2) otherwise. */
export function assertProfileName(name: string): string {
  const verdict = profileNameVerdict(name);
  if (verdict === 'path')
    throw new SecurityError('A profile must be a plain name, not a path.', { extensions: { parameter: 'profile' } });
  if (verdict === 'malformed')
    throw new BadParameterError(`A profile name is ${PROFILE_NAME_RULE}.`, { extensions: { parameter: 'profile' } });
  return name;
}

/**
 * The profile name a first login gives the `default` profile: the email's local part, lowercased,
 * other characters as `-`, leading non-alphanumerics dropped; undefined when nothing plain is left.
 */
export function profileNameFromEmail(email: string): string | undefined {
  const local = (email.split('@')[0] ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9._+-]/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 64);
  return isProfileName(local) ? local : undefined;
}
