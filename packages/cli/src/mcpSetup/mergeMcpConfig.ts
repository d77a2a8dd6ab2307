import { isDeepStrictEqual } from 'node:util';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '@gflow/errors';
import { type JsoncNode, JsoncSyntaxError, insertMember, parseJsonc } from './jsonc.js';
import { type McpTarget, mcpEntryFor } from './mcpConfigPath.js';
import type { LaunchCommand } from './launchCommand.js';

export interface McpSetupResult {
  readonly status: 'configured' | 'already_configured';
  readonly target: McpTarget;
  readonly config_path: string;
  readonly server_name: string;
  /** The backup written before the change, or null (no earlier file, or nothing changed). */
  readonly backup_path: string | null;
  /** The entry written, or null when an existing one was left alone. */
  readonly entry: Readonly<Record<string, unknown>> | null;
  /** How the entry starts gflow: `gflow` by name (it is on PATH), or absolute paths (it is not). */
  readonly launch: LaunchCommand['via'];
  /** Why that way. */
  readonly launch_reason: string;
}

const EXISTING_NAMES = ['gflow', 'gflow-cli'];
const FIX_BY_HAND = 'Fix the file by hand (or move it away), then run gflow mcp setup again.';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What is in the file: its text (undefined when there is none), its value, and (JSONC) its tree. */
interface Existing {
  readonly text: string | undefined;
  readonly config: Record<string, unknown>;
  readonly tree: JsoncNode | undefined;
}

function refuse(file: string, detail: string, cause?: unknown): never {
  throw new ConfigurationError(`The MCP config ${file} ${detail}; it was left untouched.`, {
    ...(cause === undefined ? {} : { cause }),
    remediationHint: FIX_BY_HAND,
    extensions: { config_path: file },
  });
}

/** Reads the config: strict JSON, or JSONC (comments, trailing commas, a BOM) for VS Code. */
function readExisting(file: string, jsonc: boolean): Existing {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { text: undefined, config: {}, tree: undefined };
    throw new ConfigurationError(`Cannot read the MCP config (${code ?? 'error'}).`, {
      cause: error,
      extensions: { config_path: file },
    });
  }
  if (!text.replace(/^\uFEFF/, '').trim()) return { text, config: {}, tree: undefined };
  let parsed: unknown;
  let tree: JsoncNode | undefined;
  try {
    if (jsonc) {
      tree = parseJsonc(text);
      parsed = tree.value;
    } else parsed = JSON.parse(text);
  } catch (error) {
    const why = error instanceof JsoncSyntaxError ? ` (${error.message})` : '';
    refuse(file, `is not valid ${jsonc ? 'JSON with comments' : 'JSON'}${why}`, error);
  }
  if (!isPlainObject(parsed)) refuse(file, 'does not hold a JSON object');
  return { text, config: parsed, tree };
}

/**
 * The new text of a JSONC config with `gflow` added under `rootKey`, by inserting text, so the
 * user's comments, order and spacing stay. The result is read back and must hold exactly the
 * old value plus the entry, or nothing is written.
 */
function insertEntry(
  file: string,
  existing: Existing & { text: string; tree: JsoncNode },
  rootKey: string,
  entry: Readonly<Record<string, unknown>>,
): string {
  const { text, tree } = existing;
  const servers = tree.members.findLast((m) => m.key === rootKey)?.value;
  if (servers && servers.kind !== 'object') refuse(file, `has a "${rootKey}" that is not an object`);
  const next = servers
    ? insertMember(text, servers, 'gflow', entry)
    : insertMember(text, tree, rootKey, { gflow: entry });
  const expected = { ...existing.config, [rootKey]: { ...(existing.config[rootKey] as object), gflow: entry } };
  let reread: unknown;
  try {
    reread = parseJsonc(next).value;
  } catch {
    reread = undefined;
  }
  if (!isDeepStrictEqual(reread, expected))
    refuse(file, 'is laid out in a way gflow cannot add its entry to without rewriting it');
  return next;
}

/**
 * Adds the `gflow` server to an MCP client's config. Other entries are kept;
 * an existing `gflow`/`gflow-cli` entry is left untouched ("Already
 * configured"); unreadable content or a non-object root (or root key) is
 * refused (exit 11) without writing. Claude Desktop's and Cursor's files are
 * strict JSON, rewritten with indent 2 and a trailing newline; VS Code's
 * mcp.json is JSON with comments (and trailing commas, a BOM): the entry is
 * inserted as text, so its comments and layout stay. A pre-existing file is
 * copied to `<name>.gflow-backup` first.
 */
export function mergeMcpConfig(file: string, target: McpTarget, launch: LaunchCommand): McpSetupResult {
  const { rootKey, entry } = mcpEntryFor(target, launch);
  const existing = readExisting(file, target === 'vscode');
  const { text, config } = existing;
  const servers = config[rootKey] ?? {};
  if (!isPlainObject(servers)) {
    throw new ConfigurationError(`"${rootKey}" in ${file} is not a JSON object; the file was left untouched.`, {
      remediationHint: `Fix "${rootKey}" by hand, then run gflow mcp setup again.`,
      extensions: { config_path: file },
    });
  }
  const how = { launch: launch.via, launch_reason: launch.reason };
  const existingName = EXISTING_NAMES.find((name) => Object.hasOwn(servers, name));
  if (existingName)
    return {
      status: 'already_configured',
      target,
      config_path: file,
      server_name: existingName,
      backup_path: null,
      entry: null,
      ...how,
    };
  const nextText =
    text !== undefined && existing.tree
      ? insertEntry(file, { ...existing, text, tree: existing.tree }, rootKey, entry)
      : `${JSON.stringify({ ...config, [rootKey]: { ...servers, gflow: entry } }, null, 2)}\n`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    let backup: string | null = null;
    if (text !== undefined) {
      backup = `${file}.gflow-backup`;
      fs.copyFileSync(file, backup);
    }
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, nextText);
    fs.renameSync(temp, file);
    return {
      status: 'configured',
      target,
      config_path: file,
      server_name: 'gflow',
      backup_path: backup,
      entry,
      ...how,
    };
  } catch (error) {
    throw new ConfigurationError(`Cannot write the MCP config (${(error as NodeJS.ErrnoException).code ?? 'error'}).`, {
      cause: error,
      extensions: { config_path: file },
    });
  }
}
