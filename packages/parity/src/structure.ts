/**
 * The CLI ↔ MCP mapping, as data (gflow-surfaces.md §2.6 and §9). Every
 * runnable command of the `gflow` binary is either mapped to the MCP tool
 * that does the same thing, or exempt with a reason; never both, never
 * neither. checkStructure.ts enforces it, including staleness in both
 * directions, and test/structure.test.ts runs it against the real tree and a
 * real MCP server.
 */

/** CLI command path → the MCP tool that is its twin. */
export const CLI_TO_MCP: Readonly<Record<string, string>> = {
  'auth status': 'gflow_auth_status',
  'image t2i': 'gflow_generate_image',
  'image i2i': 'gflow_generate_image',
  'image upscale': 'gflow_upscale_image',
  'video t2v': 'gflow_generate_video',
  'video i2v': 'gflow_generate_video',
  'video r2v': 'gflow_generate_video',
  'video upscale': 'gflow_upscale_video',
  'video stitch': 'gflow_stitch_videos',
  'video extend': 'gflow_extend_video',
  'image upload': 'gflow_upload_image',
  'credits user': 'gflow_get_credits',
  'credits list': 'gflow_get_credits',
  'character list': 'gflow_character_list',
  'character show': 'gflow_character_show',
  'character voices': 'gflow_character_voices',
  'instructions list': 'gflow_instructions_list',
  'instructions add': 'gflow_instructions_add',
  'instructions enable': 'gflow_instructions_set_enabled',
  'instructions disable': 'gflow_instructions_set_enabled',
  'instructions rm': 'gflow_instructions_rm',
  'instructions toggle-mode': 'gflow_instructions_toggle_mode',
  'instructions apply': 'gflow_instructions_apply',
  'project list': 'gflow_list_projects',
  'data list projects': 'gflow_list_projects',
  'data download': 'gflow_download_media',
  'data sync': 'gflow_sync_catalog',
  'data usage': 'gflow_usage_stats',
  models: 'gflow_list_models',
  'tools list': 'gflow_list_tools',
  'tools show': 'gflow_list_tools',
  'tools run': 'gflow_run_prompt_tools',
  'image batch': 'gflow_generate_batch',
  run: 'gflow_generate_batch',
  'video chain': 'gflow_generate_chain',
  'video chain-status': 'gflow_chain_status',
  'movie run': 'gflow_make_movie',
  'movie plan': 'gflow_make_movie',
  'movie status': 'gflow_movie_status',
  'task list': 'gflow_task_list',
  'task show': 'gflow_task_get',
  'task wait': 'gflow_task_wait',
  'task cancel': 'gflow_task_cancel',
  'task resume': 'gflow_task_resume',
};

/** CLI command path → why it has no MCP tool. */
export const MCP_EXEMPT: Readonly<Record<string, string>> = {
  auth: 'interactive: with no profile the bare command runs the browser sign-in (auth login); otherwise it prints the auth list table',
  'auth login': 'interactive: a human signs in in a browser window; authLogin is CLI/library only by its surfaces',
  'auth renew':
    "rewrites a profile's saved cookies; MCP reaches renewal only through gflow_get_credits(refresh=true), as upstream (authRenew is CLI/library only)",
  'auth logout': 'destructive, CLI-only: deletes a profile directory',
  'auth list':
    'local profile admin: reads profile directories and config.toml; an agent names a profile, it does not manage them',
  'auth use': 'local config admin: writes default_profile to config.toml',
  'project show': 'not yet ported: one catalogued project; gflow_list_projects lists them',
  'project create':
    'mutates Flow: projectsCreate is CLI/library only by its surfaces; the generate tools create a project through project_name',
  'project rename': 'mutates Flow: projectsRename is CLI/library only by its surfaces',
  'data list images': 'not yet ported: "there is no MCP twin for that listing" (MCP guide, failed generations)',
  'data list videos': 'not yet ported: the video twin of data list images, which has no MCP tool either',
  'data list profiles': 'local catalog admin: profile activity for the operator',
  'data list errors': 'local catalog admin: failed-operation records for the operator',
  'data media': 'local catalog admin: prints local file paths, which MCP replies avoid on purpose',
  'data prune': 'destructive, CLI-only: drops catalog rows of missing local files',
  'data errors export': 'local catalog admin: writes JSON Lines to any path the operator names',
  'data errors prune': 'destructive, CLI-only: deletes failed-operation records',
  'credits usage':
    "the ledger's credit numbers (creditUsage is CLI/library only by its surfaces): gflow_usage_stats carries the same numbers in its credits block",
  worker:
    "a fleet's worker process (gflow worker --fleet URL): it serves this machine's profiles until stopped; MCP clients submit to the fleet through a front door started with --fleet",
  'worker run':
    'internal: the detached process --no-wait starts to drain a profile queue; a server runs its own wait=false jobs in its background',
  'movie template':
    "prints a commented example storyboard for a terminal user's file; gflow_make_movie's input schema describes the storyboard to an agent",
  'mcp setup': 'bootstrap: registers gflow in an MCP client config',
  'mcp run': 'the MCP server itself (stdio)',
  serve: 'the MCP server itself (Streamable HTTP / SSE)',
  gallery:
    'a browser view of the catalog served by the HTTP daemon; inside MCP clients the same result views are the MCP App (ui://gflow/result.html) that the generate, download, upscale and list_projects tools link',
  'telemetry status':
    'local settings admin: "MCP does not expose telemetry on or off; those controls are CLI-only by design" (seed); gflow_usage_stats reports the state',
  'telemetry on': 'local settings admin: CLI-only by design (seed)',
  'telemetry off': 'local settings admin: CLI-only by design (seed)',
  doctor: 'not yet ported: local installation diagnostics (exempt upstream too)',
  update:
    'self-update: "gflow update is a considered exemption, not a backlog item" (MCP guide): the operator upgrades and restarts the server',
};

/** MCP tool → why no CLI command maps to it. An entry marked GAP is a known gap in requirements.ts. */
export const MCP_ONLY: Readonly<Record<string, string>> = {
  gflow_check_flow:
    'the CLI runs checkFlow as `gflow doctor --live` (with --capture and --profile): a flag of the local doctor, which itself has no MCP twin (its local checks are exempt above)',
};

/**
 * CLI parameter key → tool parameter, for every mapped command (upstream's
 * _PARAM_ALIASES, plus the --on/--off pair of instructions toggle-mode).
 * Used only when the key itself is not a tool parameter.
 */
export const OPTION_RENAMES: Readonly<Record<string, string>> = {
  project_id: 'project',
  refs: 'reference_images',
  tool_specs: 'tools',
  image: 'initial_frame',
  enable_mode: 'enabled',
  disabled: 'enabled',
  on: 'enabled',
  off: 'enabled',
};

/** `'<command>:<key>'` → tool parameter, for one command. */
export const LEAF_OPTION_RENAMES: Readonly<Record<string, string>> = {
  'instructions apply:file': 'cards',
  'tools run:name': 'tools',
  'image batch:manifest': 'items',
  'run:config': 'items',
  'video chain:file': 'links',
  'movie run:file': 'storyboard',
  'movie plan:file': 'storyboard',
};

/** CLI parameter keys that need no tool parameter on any command, and why. */
export const DEFAULT_OPTION_EXEMPT: Readonly<Record<string, string>> = {
  json: 'output format: MCP replies are structured already',
  sandbox: 'the built-in simulator is chosen when the server starts (gflow mcp run --sandbox), not per call',
  fleet: 'a fleet is chosen when the server starts (gflow serve --fleet URL, GFLOW_FLEET_URL), not per call',
  out: 'CLI-only flat output directory; MCP writes under GFLOW_CLI_OUTPUT_DIR (output is the per-call file)',
  out_dir: 'output location; MCP confines it to GFLOW_CLI_OUTPUT_DIR where the tool takes one',
  output_file: 'output location (upstream name)',
  stdin: 'terminal input',
  prompts_file: 'terminal batch input',
  transport: 'server transport, not a call parameter',
  jitter: 'pacing of CLI batches',
  progress: 'how the CLI shows progress on stderr (a status line or JSON lines); MCP sends progress notifications',
  continue_on_error: 'the default of a run of many (fail_fast false); a CLI spelling of the opposite of --fail-fast',
};

/** `'<command>:<key>'` → why that CLI parameter has no tool parameter. GAP entries name the issue. */
export const OPTION_EXEMPT: Readonly<Record<string, string>> = {
  'tools run:style': 'folded into tools[0].options.style of gflow_run_prompt_tools',
  'image t2i:fail_fast':
    'several prompts on the command line run through gflow_generate_batch, whose fail_fast it is; one prompt has nothing to stop',
  'image batch:out': "folded into each item's output",
  'video chain:yes': 'a terminal confirmation before spending; an MCP call is the decision',
  'movie run:yes': 'a terminal confirmation before spending; an MCP call is the decision',
  'video extend:count':
    'a run of extensions: the CLI runs it as gflow_make_movie with one scene over the source ({media_id, extend: [prompt × N]})',
  'video extend:stitch': 'folded into gflow_make_movie (stitch, output), which video extend -n/--stitch runs',
  'video extend:resume_from': "gflow_make_movie's resume_from, which continues a run of extensions",
};
