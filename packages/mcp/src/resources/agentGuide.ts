import type { Operation } from '@gflow/core';
import { loadedOperations } from '@gflow/core/surfaces';

const COMMON_RULES = [
  '## Rules',
  '- Use these MCP tools; do not shell out to the `gflow` CLI from a terminal tool. The tools return structured JSON; the CLI prints for humans.',
  '- `profile` is a plain profile name ("default" resolves as the CLI does), never a path.',
  "- `output` / `out_dir` are relative to the server's output directory and must stay inside it; the server refuses anything else.",
  '- Call gflow_auth_status first when in doubt: it is free, and a dead session fails fast there instead of minutes into a generation.',
  "- One browser profile serves one process at a time. This server keeps its browser warm after a call (the profile's lease with it),",
  "  but gives the profile up within about a second when another gflow process (another client's server, a CLI run) waits for it,",
  '  and right after its running call when busy. A call that has to wait reports `waiting-for-profile` progress naming the task it is queued behind.',
  '',
  '## Errors',
  'A failed call returns `isError: true` with `{status: "error" | "rate_limited", error}`; `error` is RFC 9457 problem details plus `message` and `retryable`.',
  'Read it in this order: `retryable` → `status` → `title` → `detail`, then follow `remediation_hint`.',
  '- `retryable: true`: transient (WAF, rate limit, timeout, network). Re-run once; if it repeats at once, stop.',
  '- `retryable: false`: retrying the same call fails the same way. Relay the hint to the human.',
  '- "Unexpected <Class>; details were logged to logs/errors.log in the gflow home." (500) is masked on purpose; that file (and the server\'s stderr log) has the details, under the error\'s `instance`.',
  '- Exit-39 equivalent ("This Google account cannot reach Flow"): stop; only the human can fix it.',
  '- 409 `profile-locked` ("Profile In Use"): another gflow process still held the profile after the wait (180 s). `detail` names it',
  '  (e.g. "gflow mcp run, pid 1234") and what it is doing ("busy with Generate videos …"). Tell the human; retry once that job is done.',
  '',
  '## Resources',
  '- gflow://docs/known-issues — one line per known issue; gflow://docs/known-issues/{slug} for one issue.',
  '- gflow://db/schema — the SQLite catalog schema.',
  "- gflow://media/{media_id} — a generated file's bytes (blob) from the local catalog, at most 20 MiB; larger videos: use the file path.",
  '- gflow://projects/{project_id} — a catalogued project as JSON: counts and its newest media ids with their files. Both ids complete.',
  '- gflow://tasks/{task_id} — a queued task as tasks/get answers it (JSON), for readers that cannot send tasks/get.',
];

const SPEND_SAFELY = [
  '## Spending safely',
  "- Ask before you spend: `dry_run: true` on a generation (or `quote: true` with a chain's dry run) returns Flow's own credit",
  '  quote and the balance (`status: "estimated"`, `credits_quoted`, `balance`) and submits nothing.',
  '- Cap a call: `max_credits: N` refuses a submit Flow quotes above N (`budget-exceeded`, nothing spent); the server may also have',
  '  GFLOW_CLI_MAX_CREDITS_PER_CALL and a daily budget (GFLOW_CLI_DAILY_CREDIT_BUDGET). A `budget-exceeded` refusal is final for',
  '  that call: tell the human the quote and the budget instead of retrying.',
  '- Retry without paying twice: give every paid call an `idempotency_key` of your own; the same key again answers the earlier',
  '  task or run (followed to its end) instead of submitting again. A batch or chain that stopped continues with gflow_task_resume:',
  '  a step that may have been submitted is recovered by its ids, never submitted again.',
  '- Stop: gflow_task_cancel (or tasks/cancel) stops a task before its submit; after it the credits may be spent',
  '  (`indeterminate`): check the Flow project before you run it again.',
  '- A result says what it cost: `credits_quoted` (before the click) and `credits_spent` (measured after, when the balance was read).',
];

const SPEND_SECTION = [
  '## Generating',
  '- gflow_generate_image (Nano Banana / Imagen) and gflow_generate_video (Veo / Omni). Video spends Flow credits; images use per-model daily quotas.',
  '- Use the expand_prompt prompt to structure an idea as Subject + Action + Location + Composition + Style before generating.',
  "- `wait=true` (default) runs the job inside the call: minutes for a video, which can outlast your client's tool timeout.",
  '- If your client speaks the MCP Tasks extension (io.modelcontextprotocol/tasks) and declares it, a generation answers a task',
  '  (CreateTaskResult) whatever `wait` says, and your client follows it with tasks/get: `working`, then `completed` with `result` =',
  '  the reply wait=true would have given. A failed generation is also `completed`, with `result.isError: true` — check it before',
  '  using the files. `failed` means the task could not run at all (its process died). tasks/cancel stops it.',
  '- Otherwise `wait=false` returns `{status: "pending", task_id}` at once; follow it with the task tools:',
  '  gflow_task_wait waits (at most 50 s a call: if it is still running you get `{status: "pending", phase, …}` — call again) and',
  '  answers the reply wait=true would have given; gflow_task_get looks without waiting; gflow_task_cancel stops it;',
  '  gflow_task_list lists the queue (to find an id you lost).',
  '- A cancelled job whose submit had fired may still have spent a credit: check the Flow project before retrying.',
  '- A completed result lists `files` (absolute paths) and carries `resource_link` items: file:// URIs to them, and gflow://media/<media_id>',
  "  per media id for when you cannot read the server's files (resources/read returns the bytes).",
  '- Rate limit: a burst of 8 generations, then one per 20 s; beyond that you get `{status: "rate_limited"}` with `retry_after`.',
  "- Chain image → video by passing a generated image's media id as `initial_frame` or in `reference_images`.",
  "- An image that is not on the server's disk goes inline: `initial_frame` / `reference_images` (and gflow_upload_image's `path`)",
  '  take `data:image/png;base64,…` (PNG/JPEG/WebP/GIF, ≤ 20 MB). URLs are refused: gflow fetches nothing for an input.',
  '- Make a clip longer with gflow_extend_video({media_id, prompt}): a new clip that continues the finished one from its last',
  '  second (Veo 3.1 only; it spends like a video); then gflow_stitch_videos([source, extension], overlap: 1) for one file.',
  '- Make a movie in one call with gflow_make_movie({storyboard: {title, scenes: [{prompt, start?: "previous", characters?, extend?: [prompt]}]}}):',
  '  dry_run + quote first (the whole price, nothing sent), then the real call; it is one durable run (resume_from = movie_id never pays twice)',
  '  and ends with one stitched MP4 and an OpenTimelineIO timeline. N extensions in a row: one scene {media_id, extend: [prompt, prompt]}.',
  '- Join clips into one video with gflow_stitch_videos: local, no browser, spends nothing; inputs are files in the output directory or',
  "  media ids of downloaded videos; `overlap: 1` removes the second an extension repeats from its source's end.",
  '- Before spending on a profile not checked for a day, gflow_check_flow is free: it walks every control a generation needs and',
  '  submits nothing. `status: "drifted"` names what Flow changed (`capabilities[].expected` / `found`): tell the human before a paid run.',
];

/** The read-only server's section: the spending tools it left out, by name (every operation of kind spend). */
function noSpendSection(): string[] {
  const spending = loadedOperations()
    .filter((op) => op.kind === 'spend')
    .map((op) => op.mcpName)
    .join(', ');
  return [
    '## Read-only server (no-spend mode)',
    `This server runs with --no-spend (GFLOW_MCP_NO_SPEND): the credit-spending tools (${spending}) are not registered at all.`,
    'Do not look for a workaround, and do not run `gflow` from a terminal to generate instead.',
    'You can inspect auth, credits, projects, characters, models, prompt tools and instruction cards, download or upscale existing',
    'media, stitch downloaded clips into one video (gflow_stitch_videos), and prepare prompts with expand_prompt / create_character',
    'for a human to run on a spending server.',
  ];
}

/** The agent guide served at gflow://docs/mcp-guide; a different text in no-spend mode. */
export function agentGuide(operations: readonly Operation[], noSpend: boolean): string {
  const toolLines = operations.map(
    (op) => `- ${op.mcpName} — ${op.title} (${op.kind}${op.usesBrowser ? ', opens a browser' : ''})`,
  );
  return [
    noSpend ? '# gflow MCP server — agent guide (read-only, no-spend)' : '# gflow MCP server — agent guide',
    '',
    "gflow drives Google Flow (Veo video, Nano Banana / Imagen images) in the user's own signed-in browser profile.",
    '',
    '## Tools on this server',
    ...toolLines,
    '',
    ...(noSpend ? noSpendSection() : [...SPEND_SECTION, '', ...SPEND_SAFELY]),
    '',
    ...COMMON_RULES,
    '',
  ].join('\n');
}
