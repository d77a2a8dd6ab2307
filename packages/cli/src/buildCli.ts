import type { CommandDef } from './framework/commandSpec.js';
import { type ChildEntry, defineGroup, groupSpecOf, loadChild } from './framework/commandSpec.js';

/** A command the app adds to the tree at a path (`'mcp run'`, `'serve'`). */
export type ExtraCommands = Readonly<Record<string, CommandDef>>;

export interface BuildCliOptions {
  readonly version: string;
  /** Commands the app adds (the CLI package may import only core and errors). */
  readonly extraCommands?: ExtraCommands;
}

/** Top-level commands: a summary for the root help, and a lazy loader (so `gflow models` loads only models). */
const TOP: Readonly<
  Record<string, { readonly description: string; readonly load: () => Promise<CommandDef>; readonly hidden?: true }>
> = {
  auth: {
    description: 'Sign in to Flow and manage profiles (login, status, renew, logout, list, use).',
    load: async () => (await import('./commands/authCommands.js')).authCommand,
  },
  image: {
    description: 'Generate and manage images (t2i, i2i, upload, upscale, batch).',
    load: async () => (await import('./commands/imageCommands.js')).imageCommand,
  },
  video: {
    description: 'Generate and manage videos (t2v, i2v, r2v, extend, chain, stitch, upscale).',
    load: async () => (await import('./commands/videoCommands.js')).videoCommand,
  },
  movie: {
    description: 'Movies from storyboards: template, plan, run, status (clips, extensions, one stitched file).',
    load: async () => (await import('./commands/movieCommands.js')).movieCommand,
  },
  run: {
    description: 'Run the image prompts of a config file (JSON or TOML) in one session and one project.',
    load: async () => (await import('./commands/runCommand.js')).runCommand,
  },
  credits: {
    description: 'Read the Flow credit balance (user, list).',
    load: async () => (await import('./commands/creditsCommands.js')).creditsCommand,
  },
  character: {
    description: 'Saved Flow characters (list, show, voices).',
    load: async () => (await import('./commands/characterCommands.js')).characterCommand,
  },
  instructions: {
    description: 'Agent-mode instruction cards of a project.',
    load: async () => (await import('./commands/instructionsCommands.js')).instructionsCommand,
  },
  project: {
    description: 'Flow projects (list, show, create, rename).',
    load: async () => (await import('./commands/projectCommands.js')).projectCommand,
  },
  task: {
    description: 'Queued generation tasks (--no-wait): list, show, wait, cancel.',
    load: async () => (await import('./commands/taskCommands.js')).taskCommand,
  },
  worker: {
    description: "A fleet's worker: serve this machine's profiles on a fleet (gflow worker --fleet URL).",
    load: async () => (await import('./commands/workerCommand.js')).workerCommand,
  },
  data: {
    description: 'The local catalog: list, media, prune, download, errors.',
    load: async () => (await import('./commands/dataCommands.js')).dataCommand,
  },
  models: {
    description: 'List the image and video models.',
    load: async () => (await import('./commands/modelsCommand.js')).modelsCommand,
  },
  tools: {
    description: 'Prompt tools (list, show, run).',
    load: async () => (await import('./commands/toolsCommands.js')).toolsCommand,
  },
  mcp: {
    description: 'The MCP server: setup for Claude Desktop, Cursor, VS Code (and run).',
    load: async () => (await import('./commands/mcpCommands.js')).mcpCommand,
  },
  doctor: {
    description: 'Check the installation, settings, browser and catalog (read-only).',
    load: async () => (await import('./commands/doctorCommand.js')).doctorCommand,
  },
  update: {
    description: 'Check for a newer gflow (never upgrades itself).',
    load: async () => (await import('./commands/updateCommand.js')).updateCommand,
  },
  telemetry: {
    description: 'Local usage recording (status, on, off); nothing is uploaded.',
    load: async () => (await import('./commands/telemetryCommands.js')).telemetryCommand,
  },
};

const ROOT_EXAMPLES = [
  'gflow auth login',
  'gflow image t2i "a red fox in fresh snow" -n 2 --aspect 16:9',
  'gflow video t2v "waves at dusk" --model veo-fast --duration 8',
  'gflow data list images --limit 5',
  'gflow mcp setup --target claude-desktop',
];

/** Adds extras under a group (`mcp` + `run`), keeping the group lazy. */
function withExtras(
  load: () => Promise<CommandDef>,
  extras: ReadonlyArray<readonly [string, CommandDef]>,
): () => Promise<CommandDef> {
  if (!extras.length) return load;
  return async () => {
    const def = await load();
    const spec = groupSpecOf(def);
    if (!spec) return def;
    return defineGroup({ ...spec, children: { ...spec.children, ...Object.fromEntries(extras) } });
  };
}

/**
 * Builds the gflow command tree. Children load lazily, so
 * `--version`, `--help`, `models` and `data list` never load Playwright or
 * the MCP SDK; the app adds `mcp run` and `serve` through `extraCommands`.
 */
export function buildCli(options: BuildCliOptions): CommandDef {
  const extras = Object.entries(options.extraCommands ?? {}).map(
    ([path, def]) => [path.trim().split(/\s+/), def] as const,
  );
  const children: Record<string, ChildEntry> = {};
  for (const [name, entry] of Object.entries(TOP)) {
    const nested = extras
      .filter(([path]) => path.length === 2 && path[0] === name)
      .map(([path, def]) => [path[1] as string, def] as const);
    children[name] = {
      description: entry.description,
      load: withExtras(entry.load, nested),
      ...(entry.hidden ? { hidden: true } : {}),
    };
  }
  for (const [path, def] of extras) if (path.length === 1) children[path[0] as string] = def;
  return defineGroup({
    name: 'gflow',
    description: 'gflow: drive Google Flow (Veo video, Nano Banana images) from your terminal.',
    version: options.version,
    children,
    examples: ROOT_EXAMPLES,
  });
}

/** Every leaf of the tree with its path, loading each group (for parity checks and docs). */
export async function walkCli(
  root: CommandDef,
): Promise<Array<{ readonly path: readonly string[]; readonly def: CommandDef }>> {
  const out: Array<{ path: readonly string[]; def: CommandDef }> = [];
  const visit = async (def: CommandDef, path: readonly string[]): Promise<void> => {
    const group = groupSpecOf(def);
    if (!group) {
      out.push({ path, def });
      return;
    }
    for (const [name, entry] of Object.entries(group.children)) await visit(await loadChild(entry), [...path, name]);
  };
  await visit(root, []);
  return out;
}
