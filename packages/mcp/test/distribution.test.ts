import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const readJson = (file: string): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as Record<string, unknown>;

const app = readJson('apps/gflow/package.json') as { name: string; version: string; bin?: Record<string, string> };

interface PluginManifest {
  name: string;
  version: string;
  defaultEnabled?: boolean;
  userConfig?: Record<string, { type: string; title: string; description: string; required?: boolean; default?: unknown }>;
  mcpServers?: Record<string, { command: string; args?: string[]; env?: Record<string, string> }>;
}

interface ServerJson {
  $schema: string;
  name: string;
  description: string;
  version: string;
  packages: Array<{
    registryType: string;
    identifier: string;
    version: string;
    transport: { type: string };
    packageArguments?: Array<{ type: string; value?: string }>;
  }>;
}

describe('distribution files', () => {
  it('the app ships a `gflow` bin (the command both files launch)', () => {
    expect(app.bin?.['gflow']).toBeDefined();
    expect(fs.existsSync(path.join(root, 'apps/gflow', app.bin?.['gflow'] ?? 'missing'))).toBe(true);
  });

  it('.claude-plugin/plugin.json registers `gflow mcp run`, ships disabled and asks for an acknowledgement', () => {
    const plugin = readJson('.claude-plugin/plugin.json') as unknown as PluginManifest;
    expect(plugin.name).toBe('gflow');
    expect(plugin.version).toBe(app.version);
    expect(plugin.defaultEnabled).toBe(false);
    const servers = Object.values(plugin.mcpServers ?? {});
    expect(servers).toHaveLength(1);
    expect(servers[0]).toMatchObject({ command: 'gflow', args: ['mcp', 'run'] });
    const options = plugin.userConfig ?? {};
    const acknowledgement = Object.values(options).filter((option) => option.required === true);
    expect(acknowledgement).toHaveLength(1);
    expect(acknowledgement[0]?.description).toMatch(/credits/);
    // Every ${user_config.KEY} the server config uses names a declared option.
    const references = [...JSON.stringify(plugin.mcpServers).matchAll(/\$\{user_config\.([A-Za-z0-9_]+)\}/g)].map((m) => m[1] ?? '');
    for (const key of references) expect(Object.keys(options), key).toContain(key);
    // The read-only switch reaches the server as the no-spend setting (which fails closed on any unexpected value).
    expect(servers[0]?.env?.['GFLOW_MCP_NO_SPEND']).toBe('${user_config.read_only}');
    expect(options['read_only']).toMatchObject({ type: 'boolean', default: false });
  });

  it('server.json describes the npm package run as `gflow mcp run` over stdio, at the app\'s version', () => {
    const server = readJson('server.json') as unknown as ServerJson;
    expect(server.$schema).toMatch(/^https:\/\/static\.modelcontextprotocol\.io\/schemas\/\d{4}-\d{2}-\d{2}\/server\.schema\.json$/);
    expect(server.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(server.description.length).toBeLessThanOrEqual(100);
    expect(server.version).toBe(app.version);
    expect(server.packages).toHaveLength(1);
    const [pkg] = server.packages;
    expect(pkg).toMatchObject({ registryType: 'npm', identifier: app.name, version: app.version, transport: { type: 'stdio' } });
    expect(pkg?.packageArguments).toEqual([
      { type: 'positional', value: 'mcp' },
      { type: 'positional', value: 'run' },
    ]);
  });
});
