/**
 * A command the CLI prints for the user to run next ("Follow it with 'gflow task wait ID'", a
 * hint's 'gflow data download ID') must run as printed: after `--sandbox`, a `gflow task wait`
 * without it looked in the real home and exited 32 (issue 41). Every quoted `'gflow …'` (or
 * backquoted) command in printed text gets the invocation's `--sandbox` and `--profile NAME` where
 * that command takes them and does not say them already, and loses the MCP tool name core's
 * surface-neutral hints put beside it (`(gflow_download_media)`: no CLI command).
 */

/** What of the running command a follow-up must repeat. */
export interface Invocation {
  /** The command ran with --sandbox. */
  readonly sandbox: boolean;
  /** The profile the command named (--profile), unless the default. */
  readonly profile: string | undefined;
}

/** The flag names the command these words name takes, or undefined when they name no command. */
export type FlagsOf = (words: readonly string[]) => Promise<ReadonlySet<string> | undefined>;

const COMMAND = /(['`])gflow ([^'`\n]+?)\1( \(gflow_[a-z_]+\))?/g;

/** A quoted command, made runnable as printed (see above). */
async function runnable(command: string, invocation: Invocation, flagsOf: FlagsOf): Promise<string> {
  const words = command.split(/\s+/).filter(Boolean);
  const flags = await flagsOf(words);
  if (flags === undefined) return command;
  const says = (flag: string): boolean => words.some((w) => w === `--${flag}` || w.startsWith(`--${flag}=`));
  const added: string[] = [];
  if (invocation.profile !== undefined && flags.has('profile') && !says('profile'))
    added.push('--profile', invocation.profile);
  if (invocation.sandbox && flags.has('sandbox') && !says('sandbox')) added.push('--sandbox');
  return [...words, ...added].join(' ');
}

/** `text` with every quoted gflow command runnable as printed. */
export async function runnableText(text: string, invocation: Invocation, flagsOf: FlagsOf): Promise<string> {
  const matches = [...text.matchAll(COMMAND)];
  if (matches.length === 0) return text;
  let out = '';
  let at = 0;
  for (const m of matches) {
    const quote = m[1] as string;
    out += `${text.slice(at, m.index)}${quote}gflow ${await runnable(m[2] as string, invocation, flagsOf)}${quote}`;
    at = m.index + m[0].length;
  }
  return out + text.slice(at);
}

/** The profile a command's parsed values name, unless the default. */
export function invocationOf(values: Readonly<Record<string, unknown>>): Invocation {
  const profile = values['profile'];
  return {
    sandbox: values['sandbox'] === true,
    profile: typeof profile === 'string' && profile !== '' && profile !== 'default' ? profile : undefined,
  };
}
