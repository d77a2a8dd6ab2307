import { ConfigurationError } from '@gflow/errors';
import type { Gflow, SettingKey, Surface } from '@gflow/core';

/** What a command asks of the runtime factory. */
export interface RuntimeRequest {
  readonly surface: Surface;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Settings given as flags (`--profile` for servers, `--no-spend`, `--sandbox`, `-v`). */
  readonly flags: Partial<Record<SettingKey, unknown>>;
}

/**
 * Creates the core runtime for a command. The app replaces it to add what
 * the CLI package may not import (the `--sandbox` simulator).
 */
export type RuntimeFactory = (request: RuntimeRequest) => Promise<Gflow>;

/** The default factory: core's createGflow, loaded on first use so `--help` never pays for it. */
export const defaultRuntimeFactory: RuntimeFactory = async (request) => {
  if (request.flags.sandbox === true) {
    throw new ConfigurationError('--sandbox needs the gflow app (it starts the built-in Flow simulator).', {
      remediationHint: 'Run the gflow binary (apps/app), not the @gflow/cli library, for --sandbox.',
    });
  }
  const { createGflow } = await import('@gflow/core');
  return createGflow({
    surface: request.surface,
    env: request.env,
    cwd: request.cwd,
    flags: request.flags,
  });
};
