import { ConfigurationError } from '@gflow/errors';

/** Whether an import failed because the package itself is not installed (not a file inside it). */
export function isMissingPackage(error: unknown, name: string): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    message.includes(`'${name}'`)
  );
}

/**
 * Loads code that needs an optional peer of @gflow/core (a package most programs never use, kept
 * out of core's install): when the peer is missing, a configuration error that says what needs it
 * and what to install, instead of a module resolution failure.
 */
export async function loadOptionalPeer<T>(name: string, needs: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isMissingPackage(error, name)) throw error;
    throw new ConfigurationError(
      `${needs} needs ${name}, which is not installed (it is an optional peer of @gflow/core).`,
      {
        remediationHint: `Install it beside @gflow/core (npm install ${name}) and run it again.`,
        cause: error,
      },
    );
  }
}
