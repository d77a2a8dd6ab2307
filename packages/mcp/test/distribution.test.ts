import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { connectClient, inProcessHandler } from './clients.js';
import { makeTestGflow } from './testGflow.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const readJson = (file: string): Record<string, unknown> =>
  JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as Record<string, unknown>;

const app = readJson('apps/app/package.json') as { name: string; version: string; bin?: Record<string, string> };

interface PluginManifest {
  name: string;
  version: string;
  defaultEnabled?: boolean;
  userConfig?: Record<
    string,
    { type: string; title: string; description: string; required?: boolean; default?: unknown }
  >;
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
    expect(fs.existsSync(path.join(root, 'apps/app', app.bin?.['gflow'] ?? 'missing'))).toBe(true);
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
    const references = [...JSON.stringify(plugin.mcpServers).matchAll(/\$\{user_config\.([A-Za-z0-9_]+)\}/g)].map(
      (m) => m[1] ?? '',
    );
    for (const key of references) expect(Object.keys(options), key).toContain(key);
    // The read-only switch reaches the server as the no-spend setting (which fails closed on any unexpected value).
    expect(servers[0]?.env?.['GFLOW_MCP_NO_SPEND']).toBe('${user_config.read_only}');
    expect(options['read_only']).toMatchObject({ type: 'boolean', default: false });
  });

  it("server.json describes the npm package run as `gflow mcp run` over stdio, at the app's version", () => {
    const server = readJson('server.json') as unknown as ServerJson;
    expect(server.$schema).toMatch(
      /^https:\/\/static\.modelcontextprotocol\.io\/schemas\/\d{4}-\d{2}-\d{2}\/server\.schema\.json$/,
    );
    expect(server.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(server.description.length).toBeLessThanOrEqual(100);
    expect(server.version).toBe(app.version);
    expect(server.packages).toHaveLength(1);
    const [pkg] = server.packages;
    expect(pkg).toMatchObject({
      registryType: 'npm',
      identifier: app.name,
      version: app.version,
      transport: { type: 'stdio' },
    });
    expect(pkg?.packageArguments).toEqual([
      { type: 'positional', value: 'mcp' },
      { type: 'positional', value: 'run' },
    ]);
  });
});

interface Marketplace {
  name: string;
  owner: { name: string };
  plugins: Array<{ name: string; source: string; description?: string; version?: string }>;
}

const skillDirs = fs
  .readdirSync(path.join(root, 'skills'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/** A SKILL.md's YAML front matter (flat `key: value` lines) and body. */
function readSkill(dir: string): { meta: Record<string, string>; body: string } {
  const text = fs.readFileSync(path.join(root, 'skills', dir, 'SKILL.md'), 'utf8');
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  if (m === null) throw new Error(`skills/${dir}/SKILL.md has no front matter`);
  const meta = Object.fromEntries(
    (m[1] ?? '')
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf(':')).trim(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { meta, body: m[2] ?? '' };
}

describe('the Claude Code plugin (issue 23)', () => {
  it('.claude-plugin/marketplace.json lists the plugin with the fields Claude Code reads', () => {
    const market = readJson('.claude-plugin/marketplace.json') as unknown as Marketplace;
    const plugin = readJson('.claude-plugin/plugin.json') as unknown as PluginManifest;
    expect(market.name).toMatch(/^[a-z0-9-]+$/);
    expect(market.owner.name).not.toBe('');
    expect(market.plugins).toHaveLength(1);
    const [entry] = market.plugins;
    expect(entry?.name).toBe(plugin.name);
    expect(entry?.version).toBe(plugin.version);
    expect(fs.existsSync(path.join(root, entry?.source ?? 'missing', '.claude-plugin', 'plugin.json'))).toBe(true);
  });

  it('ships the gflow and video-production skills, each with a name and a description', () => {
    expect(skillDirs.sort()).toEqual(['gflow', 'video-production']);
    for (const dir of skillDirs) {
      const { meta, body } = readSkill(dir);
      expect(meta['name']).toBe(dir);
      expect((meta['description'] ?? '').length).toBeGreaterThan(40);
      expect(body.length).toBeGreaterThan(400);
    }
  });

  it('every tool, resource and prompt a skill names exists on the server', async () => {
    const client = await connectClient(inProcessHandler(makeTestGflow().gflow), 'legacy');
    try {
      const tools = new Set((await client.listTools()).tools.map((t) => t.name));
      const prompts = new Set((await client.listPrompts()).prompts.map((p) => p.name));
      const resources = new Set([
        ...(await client.listResources()).resources.map((r) => r.uri),
        ...(await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate),
      ]);
      for (const dir of skillDirs) {
        const { body } = readSkill(dir);
        const named = {
          tools: [...body.matchAll(/`(gflow_[a-z_]+)`/g)].map((m) => m[1] ?? ''),
          uris: [...body.matchAll(/`(gflow:\/\/[^`]+)`/g)].map((m) => m[1] ?? ''),
          prompts: [...body.matchAll(/the `([a-z_]+)` prompt/g)].map((m) => m[1] ?? ''),
        };
        expect(named.tools.length, dir).toBeGreaterThan(0);
        expect(
          named.tools.filter((t) => !tools.has(t)),
          `${dir}: tools`,
        ).toEqual([]);
        expect(
          named.uris.filter((u) => !resources.has(u)),
          `${dir}: resources`,
        ).toEqual([]);
        expect(
          named.prompts.filter((p) => !prompts.has(p)),
          `${dir}: prompts`,
        ).toEqual([]);
      }
    } finally {
      await client.close();
    }
  });
});
