import path from 'node:path';

/** Where everything lives inside gflow's home. Only core knows this layout. */
export interface HomeLayout {
  readonly home: string;
  readonly configToml: string;
  readonly locksDir: string;
  readonly incidentsDir: string;
  readonly flowsDir: string;
  /** Logs of the processes gflow starts itself (the CLI's background workers). */
  readonly logsDir: string;
  readonly dotenv: string;
  /** Usage lines recorded while the catalog was closed (see Gflow.recordUsage). */
  readonly usageJournal: string;
  profileDir(name: string): string;
}

export const PROFILE_DIR_PREFIX = 'profile_';

export function homeLayout(home: string): HomeLayout {
  return {
    home,
    configToml: path.join(home, 'config.toml'),
    locksDir: path.join(home, 'locks'),
    incidentsDir: path.join(home, 'incidents'),
    flowsDir: path.join(home, 'flows'),
    logsDir: path.join(home, 'logs'),
    dotenv: path.join(home, '.env'),
    usageJournal: path.join(home, 'usage-journal.jsonl'),
    profileDir: (name) => path.join(home, `${PROFILE_DIR_PREFIX}${name}`),
  };
}
