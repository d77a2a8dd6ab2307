import fs from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '@gflow/errors';
import { parse, stringify } from 'smol-toml';

/** The parts of config.toml gflow reads and writes. Unknown keys are kept. */
export interface ConfigToml {
  default_profile?: string;
  /** Local usage recording (`gflow telemetry on|off`); nothing is ever uploaded. */
  telemetry?: { enabled?: boolean };
  [key: string]: unknown;
}

/** Whether gflow records command and tool invocations in the local catalog (default on). */
export function usageRecordingEnabled(file: string): boolean {
  const telemetry = readConfigToml(file).telemetry;
  return !(typeof telemetry === 'object' && telemetry !== null && telemetry.enabled === false);
}

/** Turns local usage recording on or off in config.toml, keeping every other key. */
export function setUsageRecording(file: string, enabled: boolean): void {
  const config = readConfigToml(file);
  const telemetry = typeof config.telemetry === 'object' && config.telemetry !== null ? config.telemetry : {};
  writeConfigToml(file, { ...config, telemetry: { ...telemetry, enabled } });
}

export function readConfigToml(file: string): ConfigToml {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    // No file, or no directory for one (a home that is a file: the doctor's home check says so).
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return {};
    throw new ConfigurationError(`config.toml cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`, {
      cause: error,
    });
  }
  try {
    return parse(text) as ConfigToml;
  } catch (error) {
    throw new ConfigurationError(`config.toml is not valid TOML: ${(error as Error).message.split('\n')[0] ?? ''}`, {
      cause: error,
      remediationHint: 'Fix or delete config.toml in the gflow home; gflow does not rewrite a file it cannot parse.',
    });
  }
}

/** Writes config.toml atomically (temp file + rename), keeping unknown keys. */
export function writeConfigToml(file: string, config: ConfigToml): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, stringify(config), { mode: 0o600 });
  fs.renameSync(temp, file);
}
