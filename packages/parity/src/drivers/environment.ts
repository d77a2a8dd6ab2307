import path from 'node:path';

/** The `gflow` binary of this monorepo (runs the TypeScript sources through tsx). */
export const GFLOW_BIN = path.resolve(import.meta.dirname, '../../../../apps/gflow/bin/gflow.js');

/** A surface's view of its home: the GFLOW_CLI_HOME, the output dir and the settings env. */
export interface SurfaceHome {
  readonly home: string;
  readonly outputDir: string;
  /** GFLOW_* settings (the same for every surface of a suite). */
  readonly settings: Readonly<Record<string, string>>;
}

/** Settings every suite starts from: a private home and output dir, quiet logs. */
export function baseSettings(home: string, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return { GFLOW_CLI_HOME: home, GFLOW_CLI_OUTPUT_DIR: path.join(home, 'out'), GFLOW_CLI_LOG_LEVEL: 'ERROR', ...extra };
}

/** A child process environment: the parent's minus any GFLOW_* of the developer's shell, HOME inside the temp home. */
export function childEnv(where: SurfaceHome): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !/^(GFLOW_|FLOW_CLI_)/.test(key)) env[key] = value;
  return { ...env, HOME: where.home, XDG_CONFIG_HOME: path.join(where.home, '.config'), NO_COLOR: '1', ...where.settings };
}
