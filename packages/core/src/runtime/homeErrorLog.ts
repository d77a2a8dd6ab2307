import { registerMaskedErrorLog } from '@gflow/errors';
import { homeLayout } from '../home/homeLayout.js';
import { type LoadSettingsOptions, loadSettings } from '../settings/loadSettings.js';
import { errorLogFile } from './errorLogFile.js';

/**
 * Registers the home's masked-error log for a process with no runtime open — the CLI when a
 * command failed before it made one — so the failure it is about to print keeps its details there
 * too. Returns the removal, or undefined when the settings cannot say where the home is.
 */
export function registerHomeErrorLog(options: LoadSettingsOptions): (() => void) | undefined {
  try {
    const settings = loadSettings(options);
    return registerMaskedErrorLog(errorLogFile(homeLayout(settings.home, settings.configHome)));
  } catch {
    return undefined;
  }
}
