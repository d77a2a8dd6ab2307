import { SETTINGS, type SettingKey } from './settingsSpec.js';

/** docs/CONFIGURATION.md, rendered from the settings declared in settingsSpec.ts. */
export function renderConfigurationDoc(): string {
  const rows = (Object.keys(SETTINGS) as SettingKey[]).map((key) => {
    const s = SETTINGS[key];
    const names = [s.env, ...(s.aliases ?? [])].map((n) => `\`${n}\``).join(' / ');
    return `| ${names} | ${s.defaultText.replace(/\|/g, '\\|')} | ${s.accepts.replace(/\|/g, '\\|')} | ${s.doc.replace(/\|/g, '\\|')}${s.secret ? ' (secret: never printed)' : ''} |`;
  });
  return [
    '# Configuration',
    '',
    '<!-- Generated from packages/core/src/settings/settingsSpec.ts by `pnpm --filter @gflow/core docs:config`; a test fails when this file is stale. -->',
    '',
    'Every setting can come from, in order of precedence: a command-line flag, the process environment,',
    'a `.env` file in the working directory, `$GFLOW_CLI_HOME/.env`, then the default. Legacy `FLOW_CLI_*`',
    'names are read when the `GFLOW_CLI_*` one is unset. A bad value stops the command with one line',
    'naming the variable and what it accepts, and exit code 11.',
    '',
    'An MCP client starts `gflow mcp run` in a directory of its own choosing, so a `.env` beside your shell',
    "is not read there: put server settings in `$GFLOW_CLI_HOME/.env` or the client's `env` block.",
    '',
    '| Variable | Default | Accepts | Meaning |',
    '|---|---|---|---|',
    ...rows,
    '',
    '## Home layout',
    '',
    '| Path | What |',
    '|---|---|',
    '| `profile_<name>/` | a Chromium user-data dir, with `.gflow_account` (the email), `.gflow_browser_strategy` (`chrome` or `internal`) and, once `gflow doctor --live` ran, `.gflow_flow_check.json` (its scratch project and the last check: what `gflow doctor` and the paid-run reminder read) |',
    '| `config.toml` | `default_profile` (written by `gflow auth use`) |',
    '| `gflow.db` (+ `-wal`, `-shm`) | the SQLite catalog |',
    '| `locks/` | one lock file per profile (0600); never deleted, the kernel releases the lock |',
    '| `incidents/<date>/…` | private incident bundles (secrets redacted) |',
    '| `logs/errors.log` (+ `.1`, `.2`) | the details of errors masked as "Unexpected <Class>" (message, stack, causes; one JSON line each under the envelope\'s `instance`, redacted, 0600; rotated at 1 MiB) |',
    "| `logs/worker-<profile>.log` | the output of the CLI's background workers (`--no-wait`) |",
    "| `cache/thumbnails/` | the gallery's thumbnails, made once from the local files (safe to delete: they are made again) |",
    '| `flows/*.yaml` | declarative MCP tools, resources and prompts |',
    '| `tools/*.toml` | your own prompt tools |',
    '| `sandbox/` | the sandbox home used by `--sandbox`: its own state (profiles, `config.toml`, catalog, output, locks, incidents, logs) |',
    '',
    'The sandbox reads your configuration from the real home, not from `sandbox/`: the home `.env`, the',
    'flows in `flows/` and the prompt tools in `tools/` work there as they do outside it (the settings',
    "that place state — home, catalog, output directory, profile — are the sandbox's own).",
    '',
    'Profiles are plain names (`alice`, `work.2`), never paths: a name with a separator or `..`, or a',
    'profile directory that resolves outside the home, is refused with exit 13.',
    '',
    '## Output layout',
    '',
    '`$GFLOW_CLI_OUTPUT_DIR/images/<date>/<media_id>_<n>.<ext>` and `…/videos/<date>/<media_id>.mp4`; the',
    "extension comes from the file's magic bytes. Files are written atomically (temporary file, then",
    'rename): an interrupted run never leaves a partial file under the final name. MCP `output` values',
    'must resolve inside the output directory. A file that is already there is never replaced unless',
    "`overwrite` (the CLI's `--force`): an explicit output that exists is refused before anything is sent,",
    'and a name taken while the job ran gets a free variant (`shot-2.jpg`).',
    '',
  ].join('\n');
}
