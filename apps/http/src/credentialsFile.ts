import fs from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '@gflow/errors';

/**
 * The bearer token of config.toml `[mcp_server] credentials_path`: the
 * file's text (trimmed), or its `token` field when it is JSON. A relative
 * path is relative to the gflow home. An unreadable or empty file is a
 * configuration error: the daemon must not start without the token it was
 * told to require.
 */
export function readCredentialsToken(file: string, home: string): string {
  const resolved = path.resolve(
    home,
    file.startsWith('~/') ? path.join(process.env['HOME'] ?? '', file.slice(2)) : file,
  );
  let text: string;
  try {
    text = fs.readFileSync(resolved, 'utf8').trim();
  } catch (error) {
    throw new ConfigurationError(
      `[mcp_server] credentials_path cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
      {
        cause: error,
        remediationHint: 'Point credentials_path in config.toml at a file holding the bearer token, or remove the key.',
      },
    );
  }
  let token = text;
  if (text.startsWith('{')) {
    try {
      const parsed = JSON.parse(text) as { token?: unknown };
      token = typeof parsed.token === 'string' ? parsed.token.trim() : '';
    } catch {
      token = '';
    }
  }
  if (!token) {
    throw new ConfigurationError('[mcp_server] credentials_path holds no token.', {
      remediationHint: 'Write the bearer token (at least 16 characters) into the file, alone or as {"token": "…"}.',
    });
  }
  return token;
}
