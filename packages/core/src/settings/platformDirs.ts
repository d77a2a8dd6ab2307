import os from 'node:os';
import path from 'node:path';

/** The platform data dir for gflow's home (same places as the original gflow-cli). */
export function defaultHome(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  const home = os.homedir();
  if (platform === 'win32') return path.join(env['LOCALAPPDATA'] ?? path.join(home, 'AppData', 'Local'), 'gflow-cli');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'gflow-cli');
  const xdg = env['XDG_DATA_HOME'];
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.local', 'share'), 'gflow-cli');
}

/** `<Downloads>/gflow-cli`. */
export function defaultOutputDir(): string {
  return path.join(os.homedir(), 'Downloads', 'gflow-cli');
}
