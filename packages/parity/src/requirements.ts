/**
 * The behavioural requirements every gflow surface must meet, as data. Each
 * names the passage it comes from and the surfaces it applies to; a test file
 * proves it with `verifies(id, body)` (verifies.ts), once per surface, and
 * test/coverage.test.ts fails when a requirement is verified nowhere.
 *
 * A `knownGap` lists surfaces that do not meet the requirement yet: their
 * tests are expected failures, so fixing the gap fails the suite until the
 * entry is removed here.
 */
export const SURFACE_NAMES = ['library', 'cli', 'mcp-stdio', 'mcp-http'] as const;
export type SurfaceName = (typeof SURFACE_NAMES)[number];

export interface KnownGap {
  readonly reason: string;
  readonly surfaces: readonly SurfaceName[];
  /** A pattern the failure must match, so the gap cannot hide a different breakage. */
  readonly symptom?: string;
}

export interface Requirement {
  readonly id: string;
  /** A short quote of the passage the requirement comes from. */
  readonly seed: string;
  /** Where the passage is: `seed 000` (the MCP guide) or a section of reference/gflow-surfaces.md. */
  readonly source: string;
  readonly surfaces: readonly SurfaceName[];
  readonly knownGap?: KnownGap;
  /** Why a surface is left out, when that is not obvious. */
  readonly notOn?: string;
}

const ALL: readonly SurfaceName[] = SURFACE_NAMES;
const MCP: readonly SurfaceName[] = ['mcp-stdio', 'mcp-http'];
const SEED = 'seed 000';

export const REQUIREMENTS: readonly Requirement[] = [
  {
    id: 'no-spend.tools-hidden',
    seed: 'gflow_generate_image and gflow_generate_video are absent from tools/list entirely, rather than present-but-refusing. … Listing, instructions, and other read-only tools remain available.',
    source: SEED,
    surfaces: ['library', 'mcp-stdio', 'mcp-http'],
    notOn: 'cli: commands are not listed; no-spend.spending-refused covers it',
  },
  {
    id: 'no-spend.spending-refused',
    seed: 'Both are gated because image generation is only empirically free and no-spend is a hard guarantee.',
    source: SEED,
    surfaces: ['library', 'cli'],
    notOn: 'MCP: the tools do not exist there (no-spend.tools-hidden)',
  },
  {
    id: 'errors.unexpected-masked',
    seed: 'Unexpected (non-gflow) exceptions are masked: the client sees only the exception class name ("Unexpected RuntimeError; details were logged server-side.", status: 500, retryable: false)',
    source: SEED,
    surfaces: ['cli', 'mcp-stdio', 'mcp-http'],
    notOn: 'library: an in-process caller gets the original error as the cause, by design',
  },
  {
    id: 'errors.problem-details-envelope',
    seed: 'MCP tool failures return a structured error object built from the same RFC 9457 Problem Details as the CLI, plus a retryable boolean.',
    source: SEED,
    surfaces: ALL,
  },
  {
    id: 'errors.bad-parameter',
    seed: 'An unknown value returns a 400 problem-details envelope.',
    source: SEED,
    surfaces: ALL,
  },
  {
    id: 'profile.plain-name',
    seed: 'a tool that opens a browser profile takes profile only as a plain name, never a path (GHSA-hqfj-4jww-76f2)',
    source: SEED,
    surfaces: ALL,
  },
  {
    id: 'auth-status.marker-missing',
    seed: 'a profile_marker_missing outcome (HTTP 409, retryable: false, #796) means the profile lost its .gflow_browser_strategy marker … re-run gflow auth login --browser chrome for that profile',
    source: SEED,
    surfaces: ALL,
  },
  {
    id: 'output.mcp-confined',
    seed: 'an MCP output — and the out_dir of gflow_download_media … — must resolve inside the configured output directory … refused with a 400 Invalid Output / Invalid out_dir envelope before anything runs',
    source: SEED,
    surfaces: MCP,
    notOn: 'cli and library: "Unlike the CLI\'s -o", a local caller chooses any path',
  },
  {
    id: 'output.directory-refused',
    seed: "Both tools refuse an output that names a directory (including the output directory itself) with a 400 Invalid Output envelope before anything is queued, as the CLI's -o refuses one (#1114).",
    source: SEED,
    surfaces: ALL,
  },
  {
    id: 'rate-limit.capacity',
    seed: 'Enforces a token-bucket rate limiter with a capacity of 8 tokens and a refill rate of 1 token every 20 seconds',
    source: SEED,
    surfaces: MCP,
    notOn:
      'cli and library: the limiter is the MCP surfaces\' spending brake ("Rate limiter (MCP only)", reference §6)',
  },
  {
    id: 'rate-limit.after-validation',
    seed: 'Applied by the generate tools after every check that needs no browser (validation, profile resolution, catalog and file lookups of references), so a refused call takes no token. Refusal: {status:"rate_limited", error:RateLimitError problem + retryable:true}.',
    source: 'reference §6 (rate limiter), reordered by issue 27 (refused calls must not use up the brake)',
    surfaces: MCP,
  },
  {
    id: 'projects.pagination',
    seed: 'the response carries count (rows in this page), offset, has_more, and next_offset (pass it back as offset for the next page; null on the last page)',
    source: SEED,
    surfaces: ALL,
  },
  {
    id: 'voices.static',
    seed: 'A static in-process lookup — no network, no browser, no profile, no cost. Call it to pick a valid voice name.',
    source: SEED,
    surfaces: ALL,
  },
  {
    id: 'models.catalog',
    seed: "per model name, label …, the CLI's --model aliases …, ref_cap, default (image) and max_duration (video), plus aspects and video tiers. … Static: no profile, no browser, no spend.",
    source: SEED,
    surfaces: ALL,
  },
  {
    id: 'models.aliases-accepted',
    seed: 'Built from the same enums the generate tools use, so every alias it lists is accepted back.',
    source: SEED,
    surfaces: ALL,
  },
  {
    id: 'tools.listed-and-accepted',
    seed: "gflow_list_tools(): Lists the prompt tools (name/title/description/category) accepted by the generate tools' tools param.",
    source: SEED,
    surfaces: ALL,
  },
  {
    id: 'tools.unknown-invalid-tools',
    seed: 'Also {status:"rate_limited", error} and {status:"invalid_tools", error:str}',
    source: 'reference §2.3 (gflow_generate_image returns)',
    surfaces: ALL,
  },
  {
    id: 'usage-stats.report',
    seed: 'gflow_usage_stats(weeks): Summarize local gflow-cli usage statistics over the last N weeks (default 12, range 1..53). … Its telemetry block includes state, switch, upload (enabled and reason)',
    source: SEED,
    surfaces: ALL,
  },
  {
    id: 'usage-stats.counts-tool-calls',
    seed: 'Returns command invocation counts across surfaces from local telemetry',
    source: SEED,
    surfaces: MCP,
    notOn: 'library: an embedding records nothing; cli: see usage-stats.report',
  },
  {
    id: 'video.agentic-rejected',
    seed: 'ui_mode="agentic" is rejected with a 400 problem-details envelope, because no agentic video driver exists yet. (… the CLI equivalents of these aborts are exit 28 and exit 2 respectively.)',
    source: SEED,
    surfaces: ALL,
  },
  {
    id: 'image.instructions-classic-conflict',
    seed: 'Passing instructions forces agentic automatically, so ui_mode="classic" + instructions is a hard conflict rather than a silent drop.',
    source: SEED,
    surfaces: ALL,
  },
  {
    id: 'characters.unpaired-entity',
    seed: 'reference_entities without paired reference_entity_names return the exit-36-equivalent envelope',
    source: SEED,
    surfaces: ALL,
  },
  {
    id: 'check-flow.refused-before-the-browser',
    seed: "gflow doctor --live (MCP gflow_check_flow, library checkFlow): on the user's signed-in profile, opens a project's composer … submits nothing and spends nothing",
    source: 'issue 44',
    surfaces: ['library', 'mcp-stdio', 'mcp-http'],
    notOn:
      'cli: `gflow doctor --live` is a flag of the local doctor, not a command of its own the CLI driver can pick; apps/app/test/doctorLive.browser.test.ts runs it end to end',
  },
];

export function requirementById(id: string): Requirement {
  const found = REQUIREMENTS.find((r) => r.id === id);
  if (!found) throw new Error(`No requirement "${id}" in the manifest (src/requirements.ts).`);
  return found;
}
