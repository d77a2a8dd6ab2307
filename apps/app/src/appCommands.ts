import { galleryCommand } from './commands/galleryCommand.js';
import { mcpRunCommand } from './commands/mcpRunCommand.js';
import { serveCommand } from './commands/serveCommand.js';

/** The commands the app adds to the CLI tree (they need the MCP server or the HTTP daemon, which the CLI package may not import). */
export const APP_COMMANDS = { 'mcp run': mcpRunCommand, serve: serveCommand, gallery: galleryCommand } as const;
