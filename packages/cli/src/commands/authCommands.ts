import { BadParameterError, toErrorEnvelopeBody, toGflowError } from '@gflow/errors';
import { listProfileNames } from '@gflow/core/surfaces';
import { resolveProfile } from '@gflow/core/surfaces';
import { PROFILE_FLAG, flag } from '../args/flagSpec.js';
import { defineGroup, defineLeaf, type LeafSpec } from '../framework/commandSpec.js';
import { operationLeaf, runOperation } from '../framework/operationLeaf.js';
import { opSchema } from '../framework/opSchema.js';
import type { LeafContext } from '../framework/leafContext.js';
import { renderResult, renderTable } from '../output/table.js';

const login = operationLeaf({
  name: 'login',
  description: 'Sign in to Google Flow in a browser window and save the session in a profile.',
  operation: 'authLogin',
  schema: opSchema('authLogin'),
  examples: [
    'gflow auth login',
    'gflow auth login --profile work --browser chrome',
    'gflow auth login --account me@example.com',
  ],
  render: (result) => {
    const r = result as { profile: string; user_email: string };
    return { data: result, text: `Signed in as ${r.user_email} (profile "${r.profile}").` };
  },
});

/** Outcomes that are a verdict about the session (exit 1), not a failure of the command. */
const NOT_VERIFIED: ReadonlySet<string> = new Set([
  'auth-expired',
  'aisandbox-auth',
  'auth-missing',
  'verification-error',
  'profile-marker-missing',
  'cookie-store-unreadable',
  'network',
  'flow-app',
  'flow-access-unavailable',
  'flow-account-chooser',
  'waf-rejection',
]);

/**
 * The profile a failed probe was about, resolved as authStatus resolves it (flag,
 * GFLOW_CLI_PROFILE, config.toml, the only profile); the flag or "default" when it cannot be.
 */
function probedProfile(ctx: LeafContext, requested: unknown): string {
  const fallback = typeof requested === 'string' ? requested : 'default';
  const gflow = ctx.existingGflow;
  if (!gflow) return fallback;
  try {
    return resolveProfile(gflow.layout, {
      requested: typeof requested === 'string' ? requested : undefined,
      settings: gflow.settings,
    }).name;
  } catch {
    return fallback;
  }
}

const status = defineLeaf({
  name: 'status',
  description:
    "Probe the profile's Flow session (no credits). Exit 0 when verified, 1 otherwise; 2 when there is no profile to probe.",
  operation: 'authStatus',
  flags: () => [PROFILE_FLAG],
  examples: ['gflow auth status', 'gflow auth status --profile work --json'],
  async run(ctx, values) {
    try {
      const result = (await runOperation(ctx, 'authStatus', () => ({
        ...(values['profile'] ? { profile: values['profile'] } : {}),
      }))) as { profile: string; user_email?: string };
      return {
        data: result,
        text: `Verified: profile "${result.profile}" is signed in as ${result.user_email ?? 'an unknown account'}.`,
      };
    } catch (error) {
      const problem = toGflowError(error);
      if (!NOT_VERIFIED.has(problem.code)) throw error;
      const body = toErrorEnvelopeBody(problem);
      return {
        data: { status: problem.code.replace(/-/g, '_'), profile: probedProfile(ctx, values['profile']), error: body },
        text: `Not verified: ${body.message}`,
        exitCode: 1,
      };
    }
  },
});

const renew = operationLeaf({
  name: 'renew',
  description: 'Renew an expired Flow session headlessly from the saved cookies (no credits).',
  operation: 'authRenew',
  schema: opSchema('authRenew'),
  examples: ['gflow auth renew --profile work'],
  render: (result) => ({ data: result, text: renderResult(result) }),
});

async function listProfiles(ctx: LeafContext) {
  const { profiles: rows } = (await runOperation(ctx, 'listProfiles', () => ({}))) as {
    profiles: ReadonlyArray<{
      name: string;
      google_account: string | null;
      is_default: boolean;
      cookies_present: boolean;
      last_used_at: string | null;
    }>;
  };
  const text = rows.length
    ? renderTable(
        ['PROFILE', 'ACCOUNT', 'DEFAULT', 'COOKIES', 'LAST USED'],
        rows.map((r) => [
          r.name,
          r.google_account,
          r.is_default ? '*' : '',
          r.cookies_present ? 'yes' : 'no',
          r.last_used_at,
        ]),
      )
    : "No profiles yet. Run 'gflow auth login'.";
  return { data: rows, text };
}

const list = defineLeaf({
  name: 'list',
  description: 'List the profiles: account, default, cookies present, last used.',
  operation: 'listProfiles',
  examples: ['gflow auth list', 'gflow auth list --json'],
  run: listProfiles,
});

const use = defineLeaf({
  name: 'use',
  description: 'Make a profile the default (writes default_profile to config.toml).',
  operation: 'useProfile',
  positionals: () => [{ key: 'name', name: 'NAME', required: true, description: 'An existing profile.' }],
  examples: ['gflow auth use work'],
  async run(ctx, values) {
    const result = (await runOperation(ctx, 'useProfile', () => ({ name: String(values['name']) }))) as {
      default_profile: string;
    };
    ctx.usageProfile = result.default_profile;
    return { data: result, text: `Default profile: ${result.default_profile}` };
  },
});

const logout = defineLeaf({
  name: 'logout',
  description: 'Delete a profile directory (its saved Google session). Asks first; -y skips the question.',
  operation: 'deleteProfile',
  flags: () => [
    PROFILE_FLAG,
    flag({ key: 'yes', aliases: ['y'], kind: 'boolean', description: 'Do not ask for confirmation.' }),
  ],
  examples: ['gflow auth logout --profile old -y'],
  async run(ctx, values) {
    const gflow = await ctx.gflow({ loadCatalog: false });
    const requested = typeof values['profile'] === 'string' ? values['profile'] : undefined;
    const profile = resolveProfile(gflow.layout, {
      requested,
      settings: gflow.settings,
    });
    ctx.usageProfile = profile.name;
    if (values['yes'] !== true) {
      const ok = await ctx.confirm(
        `Delete profile "${profile.name}" (${profile.dir})?`,
        'auth logout deletes a profile: pass -y to confirm when not on a terminal.',
      );
      if (!ok) throw new BadParameterError('Not confirmed; nothing was deleted.');
    }
    const result = (await runOperation(ctx, 'deleteProfile', () => ({ profile: profile.name }))) as { profile: string };
    return { data: result, text: `Deleted profile "${result.profile}".` };
  },
});

const bare: LeafSpec = {
  name: 'auth',
  description: 'No profiles: run login; otherwise list the profiles.',
  async run(ctx) {
    const gflow = await ctx.gflow();
    if (listProfileNames(gflow.layout).length === 0) {
      const result = await runOperation(ctx, 'authLogin', () => ({}));
      return { data: result };
    }
    return listProfiles(ctx);
  },
};

export const authCommand = defineGroup({
  name: 'auth',
  description:
    'Sign in to Flow and manage profiles. Bare `gflow auth`: login when there is no profile, else the profile list.',
  children: { login, status, renew, logout, list, use },
  bare,
  examples: ['gflow auth', 'gflow auth login --profile work', 'gflow auth use work'],
});
