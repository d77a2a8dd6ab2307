import type { RuntimeFactory } from '@gflow/cli';
import { backgroundFor, defaultRuntimeFactory } from '@gflow/cli';

/**
 * The CLI's runtime factory plus the sandbox (`--sandbox`, or GFLOW_CLI_SANDBOX=true from the
 * environment, a .env or config.toml): the simulator starts in this process and the runtime
 * gets a sandbox home (@gflow/core/sandbox). The simulator is imported only when asked for.
 */
export function appRuntimeFactory(notify: (line: string) => void): RuntimeFactory {
  return async (request) => {
    // core loads lazily (here, when a command first needs a runtime): --help never pays for it; its
    // surfaces entry, not its root, whose import loads every operation.
    if (request.flags.sandbox !== true) {
      const { loadSettings } = await import('@gflow/core/surfaces');
      const settings = loadSettings({ env: request.env, cwd: request.cwd, flags: request.flags });
      if (!settings.sandbox) return defaultRuntimeFactory({ ...request, settings });
    }
    const { sandbox: _sandbox, ...flags } = request.flags;
    const { openSandbox } = await import('@gflow/core/sandbox');
    // A --no-wait job's worker opens the same sandbox (attached to the same simulator, if any).
    const background = await backgroundFor(request, true);
    const { gflow } = await openSandbox({
      surface: request.surface,
      env: request.env,
      cwd: request.cwd,
      flags,
      notify,
      ...(request.browser === false ? { signIn: false } : {}),
      ...(request.worker ? { worker: true } : {}),
      ...(background ? { background } : {}),
      ...(request.logSink ? { logSink: request.logSink } : {}),
    });
    return gflow;
  };
}
