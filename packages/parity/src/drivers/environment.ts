import path from 'node:path';
import type { CliOptions } from '@gflow/testkit/cli';

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

/** How the kit runs a child gflow for a surface: in its home, with the suite's settings (see cliEnv). */
export function childOptions(where: SurfaceHome): CliOptions {
  return { home: where.home, env: where.settings };
}
