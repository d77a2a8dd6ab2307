import { ConfigurationError } from '@gflow/errors';
import { readConfigToml } from '@gflow/core/surfaces';
import { z } from 'zod';

/**
 * The `[mcp_server]` table of config.toml (seed 002's mcp_server block):
 *
 * ```toml
 * [mcp_server]
 * enabled = true                 # false: declarative flows are not loaded (built-ins stay)
 * port = 8000                    # gflow serve's port when --port is not given
 * path = "/mcp"                  # gflow serve's Streamable HTTP endpoint
 * credentials_path = "~/.config/gflow/daemon-token"   # bearer token file when GFLOW_DAEMON_TOKEN is unset
 * resource_uri_scheme = "gflow"  # scheme of generated resource URIs: <scheme>://<flow>/<name>
 * ```
 * CLI flags and options win over these; these win over the defaults.
 */
export interface McpServerConfig {
  readonly enabled: boolean;
  readonly port?: number | undefined;
  readonly path: string;
  readonly credentialsPath?: string | undefined;
  readonly resourceUriScheme: string;
}

const table = z.strictObject({
  enabled: z.boolean().default(true),
  port: z.number().int().min(0).max(65_535).optional(),
  path: z
    .string()
    .regex(/^\/[A-Za-z0-9/_.-]*$/, 'must start with "/" and hold only letters, digits, "/", "_", "." or "-"')
    .default('/mcp'),
  credentials_path: z.string().min(1).optional(),
  resource_uri_scheme: z
    .string()
    .regex(/^[a-z][a-z0-9+.-]{0,31}$/, 'must be a URI scheme (lowercase letter, then letters, digits, "+", "." or "-")')
    .default('gflow'),
});

export const DEFAULT_MCP_SERVER_CONFIG: McpServerConfig = { enabled: true, path: '/mcp', resourceUriScheme: 'gflow' };

/** Reads `[mcp_server]` from a config.toml (absent file or table: the defaults). */
export function readMcpServerConfig(configToml: string): McpServerConfig {
  const raw = readConfigToml(configToml)['mcp_server'];
  if (raw === undefined) return DEFAULT_MCP_SERVER_CONFIG;
  const parsed = table.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `mcp_server.${issue.path.join('.')}` : 'mcp_server';
    throw new ConfigurationError(`config.toml [${where}]: ${issue?.message ?? 'invalid'}`, {
      remediationHint:
        'Fix the [mcp_server] table of config.toml in the gflow home (keys: enabled, port, path, credentials_path, resource_uri_scheme).',
    });
  }
  const { enabled, port, path, credentials_path, resource_uri_scheme } = parsed.data;
  return { enabled, port, path, credentialsPath: credentials_path, resourceUriScheme: resource_uri_scheme };
}
