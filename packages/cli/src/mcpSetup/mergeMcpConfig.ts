import fs from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '@gflow/errors';
import { type McpTarget, mcpEntryFor } from './mcpConfigPath.js';

export interface McpSetupResult {
  readonly status: 'configured' | 'already_configured';
  readonly target: McpTarget;
  readonly config_path: string;
  readonly server_name: string;
  /** The backup written before the change, or null (no earlier file, or nothing changed). */
  readonly backup_path: string | null;
}

const EXISTING_NAMES = ['gflow', 'gflow-cli'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readExisting(file: string): { text: string | undefined; config: Record<string, unknown> } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { text: undefined, config: {} };
    throw new ConfigurationError(`Cannot read the MCP config (${code ?? 'error'}).`, {
      cause: error,
      extensions: { config_path: file },
    });
  }
  if (!text.trim()) return { text, config: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConfigurationError(`The MCP config ${file} is not valid JSON; it was left untouched.`, {
      cause: error,
      remediationHint: 'Fix the file by hand (or move it away), then run gflow mcp setup again.',
      extensions: { config_path: file },
    });
  }
  if (!isPlainObject(parsed)) {
    throw new ConfigurationError(`The MCP config ${file} does not hold a JSON object; it was left untouched.`, {
      remediationHint: 'Fix the file by hand (or move it away), then run gflow mcp setup again.',
      extensions: { config_path: file },
    });
  }
  return { text, config: parsed };
}

/**
 * Adds the `gflow` server to an MCP client's config. Other entries are kept;
 * an existing `gflow`/`gflow-cli` entry is left untouched ("Already
 * configured"); invalid JSON or a non-object root (or root key) is refused
 * (exit 11) without writing. A pre-existing file is copied to
 * `<name>.gflow-backup` first; the result is written with indent 2 and a
 * trailing newline.
 */
export function mergeMcpConfig(file: string, target: McpTarget): McpSetupResult {
  const { rootKey, entry } = mcpEntryFor(target);
  const { text, config } = readExisting(file);
  const servers = config[rootKey] ?? {};
  if (!isPlainObject(servers)) {
    throw new ConfigurationError(`"${rootKey}" in ${file} is not a JSON object; the file was left untouched.`, {
      remediationHint: `Fix "${rootKey}" by hand, then run gflow mcp setup again.`,
      extensions: { config_path: file },
    });
  }
  const existing = EXISTING_NAMES.find((name) => Object.hasOwn(servers, name));
  if (existing)
    return { status: 'already_configured', target, config_path: file, server_name: existing, backup_path: null };
  const next = { ...config, [rootKey]: { ...servers, gflow: entry } };
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    let backup: string | null = null;
    if (text !== undefined) {
      backup = `${file}.gflow-backup`;
      fs.copyFileSync(file, backup);
    }
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, `${JSON.stringify(next, null, 2)}\n`);
    fs.renameSync(temp, file);
    return { status: 'configured', target, config_path: file, server_name: 'gflow', backup_path: backup };
  } catch (error) {
    throw new ConfigurationError(`Cannot write the MCP config (${(error as NodeJS.ErrnoException).code ?? 'error'}).`, {
      cause: error,
      extensions: { config_path: file },
    });
  }
}
