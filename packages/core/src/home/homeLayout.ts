import path from 'node:path';

/**
 * Where everything lives inside gflow's home. Only core knows this layout. State (profiles,
 * catalog, locks, incidents, logs) lives in `home`; configuration the user writes (the `.env`,
 * declarative flows, prompt tools) in `configHome` — the same directory, except in the sandbox,
 * whose state is its own but whose configuration is the user's.
 */
export interface HomeLayout {
  readonly home: string;
  readonly configHome: string;
  readonly configToml: string;
  readonly locksDir: string;
  readonly incidentsDir: string;
  readonly flowsDir: string;
  /** The user's prompt tools (`*.toml`). */
  readonly toolsDir: string;
  /** Logs of the processes gflow starts itself (the CLI's background workers). */
  readonly logsDir: string;
  /** Things gflow can make again from what it keeps (the gallery's thumbnails). */
  readonly cacheDir: string;
  readonly dotenv: string;
  /** Usage lines recorded while the catalog was closed (see Gflow.recordUsage). */
  readonly usageJournal: string;
  profileDir(name: string): string;
}

export const PROFILE_DIR_PREFIX = 'profile_';

export function homeLayout(home: string, configHome: string = home): HomeLayout {
  return {
    home,
    configHome,
    configToml: path.join(home, 'config.toml'),
    locksDir: path.join(home, 'locks'),
    incidentsDir: path.join(home, 'incidents'),
    flowsDir: path.join(configHome, 'flows'),
    toolsDir: path.join(configHome, 'tools'),
    logsDir: path.join(home, 'logs'),
    cacheDir: path.join(home, 'cache'),
    dotenv: path.join(configHome, '.env'),
    usageJournal: path.join(home, 'usage-journal.jsonl'),
    profileDir: (name) => path.join(home, `${PROFILE_DIR_PREFIX}${name}`),
  };
}
