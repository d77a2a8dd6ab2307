// Writes docs/CLI.md: the hand-written guide below, then every command's help
// as the binary prints it (generated from the same tree, so it cannot drift).
//   node --import tsx apps/app/scripts/cliDoc.ts
import fs from 'node:fs';
import path from 'node:path';
import { type CommandDef, buildCli, groupSpecOf, renderHelp, walkCli } from '@gflow/cli';
import { APP_COMMANDS } from '../src/appCommands.js';

const GUIDE = `# gflow command line

\`gflow\` drives Google Flow (Veo video, Nano Banana images) in your own signed-in Chromium
profile. It is a thin adapter: each command parses its flags, runs one core operation (or
reads the local catalog) and renders the result. Flags of operation-bound commands are
derived from the operation's zod schema, and that schema is also the validation.

## Running it

Inside the monorepo \`bin/gflow.js\` runs the bundle in \`apps/app/dist\` (built by the bootstrap, or
\`node apps/app/scripts/build.mjs\`) while it is up to date with the sources, and the TypeScript
sources through tsx when it is not, so edits take effect without a rebuild (only start-up is slower):

\`\`\`sh
node apps/app/bin/gflow.js --help
pnpm --filter @gflow/app exec gflow models        # or: node tooling/scripts/pnpm.mjs --filter @gflow/app exec gflow models
\`\`\`

To put \`gflow\` on your PATH, pack the checkout and install the tarball (\`@gflow/app\` is not
published on the npm registry; the \`gflow\` package there is another project):

\`\`\`sh
npm run pack:app                   # bootstrap, build, pack → dist/gflow.tgz (-- --out FILE for elsewhere)
npm install -g ./dist/gflow.tgz    # the bundle, plus better-sqlite3 and playwright-core from the registry
\`\`\`

The tarball's package.json names real versions (the workspace's \`catalog:\` resolved), so npm can
install it; a plain \`npm pack\` of apps/app cannot be installed. The installed \`gflow\` runs on
the Node found on PATH, which must be 22.19+ or 24.

## Conventions

- **Global flags:** \`-h/--help\` (any command; the word \`help\` first says the same), \`-V/--version\`,
  \`-v/--verbose\` (GFLOW_CLI_LOG_LEVEL=DEBUG).
- **Flags** are kebab-case spellings of the MCP parameters where they mean the same
  (\`--reference-entity\`, \`--ui-mode\`, \`--project-name\`), plus the CLI forms: \`-n/--count\`,
  \`--aspect\`, \`--model\`, \`-o/--output FILE\`, \`--out DIR\`, \`--ref\` (repeatable:
  reference_images), \`--initial-frame\`/\`--end-frame\`, \`--duration\`, \`--resolution\`,
  \`-t/--tool NAME[:k=v,…]\` (repeatable), \`--profile\`, \`--json\`, \`--sandbox\`.
  Repeatable flags are given once per value. Switches take \`--no-x\` to turn off.
- **Which Flow project:** \`--project ID\`; else, unless \`--project-name\` asks for a new one, a
  media id given as a frame or reference keeps the run in that media's project, then
  GFLOW_CLI_PROJECT; else the run creates a project and titles it (through the editor's header, as
  a person would) \`--project-name\`, or the prompt's first words (at most 60 characters). A title Flow does not confirm leaves Flow's own name and a
  log line; the run goes on. MCP's \`project\` / \`project_name\` work the same way.
- **Defaults that differ from MCP:** image aspect is 9:16 on the CLI (1:1 over MCP).
- **\`-o/--output\`** is any path you choose (not confined to GFLOW_CLI_OUTPUT_DIR, unlike MCP's
  \`output\`), but never a directory, and never a file that exists unless \`--force\` (refused
  before anything is sent, exit 2). The extension always says what the bytes are: \`-o shot.png\`
  on JPEG bytes writes \`shot.jpg\`, \`-o shot\` writes \`shot.jpg\`, and a \`Note:\` on stderr (\`notes\`
  in the JSON) says so; a name taken while the job ran gets \`shot-2.jpg\`, never a replaced file.
  \`--out DIR\` writes the files flat into DIR, each named by its media id. Before anything
  is sent, gflow makes the target's directory (or the output directory) and writes a probe file
  in it: a path that cannot be written (\`/proc/x.png\`, a file in the way, a read-only mount) exits
  11 (Output Not Writable) with nothing sent. A write that still fails after the spend exits 11
  (Output Write Failed) naming the media id to fetch with \`gflow data download\`.
- **The sandbox:** \`--sandbox\`, or GFLOW_CLI_SANDBOX=true in the environment or a \`.env\`, runs
  against the built-in Flow simulator in \`<home>/sandbox\` and says so on stderr. The sandbox
  home has its own profiles and config.toml: its default profile is that config.toml's
  \`default_profile\` (\`sandbox\`, signed in on first use; \`gflow auth use NAME --sandbox\`
  changes it), and GFLOW_CLI_PROFILE, which names a real profile, is not used there (a notice on
  stderr says so; a server's \`--profile\` is). \`telemetry status|on|off --sandbox\` read and write the sandbox's switch
  without signing anything in or starting a browser. \`mcp run --sandbox\` and \`serve --sandbox\`
  answer their client at once and sign in in the background: the first tool call waits for the
  sign-in and says so as progress (\`starting-browser: sandbox: signing the sandbox profile in …\`).
- **Characters:** \`--reference-entity ID\` with \`--reference-entity-name NAME\` at the same
  position (images and r2v). An \`@Name\` inside the prompt of an image or an r2v video is attached
  where it stands when exactly one saved character has that name (two: exit 11, naming both ids,
  nothing submitted); a word that names no character stays text. The result names the characters
  that went with the submit: \`characters: [{id, name}]\` in the JSON, a \`characters:\` line
  (\`Mira (ID)\`) on the terminal.
- **References:** a \`--ref\` named twice (the same file or media id) is attached once. A
  catalogued image given by its media id is attached in place from the picker by the name Flow
  lists it by, not uploaded again.
- **The submit guard:** the page's own submit request is held in the browser and checked against
  the job asked for (model, mode, duration, every frame, reference and character id); a body that
  does not match is aborted before it leaves, exit 7, "nothing was sent".
- **Profiles** are plain names: \`--profile\`, then GFLOW_CLI_PROFILE, then \`default_profile\` in
  config.toml, then the only profile. A name that looks like a path exits 13.
  A name that names no profile exits 2 and says where it came from: \`(from GFLOW_CLI_PROFILE in
  the environment)\`, \`… in the working directory's .env\`, \`… in <home>/.env\`, or \`(from
  default_profile in <home>/config.toml)\`, with a hint for that place (\`gflow auth use\` for
  config.toml). \`--profile default\` means the default profile, resolved the same way. A login
  on a home with no profile and no default makes one (named after the account once signed in);
  a login that fails (a refused \`--account\`, exit 38; a timeout; Ctrl-C) removes the profile
  directory it made. On the local reads
  (\`data …\`, \`task list\`, \`project list|show\`, \`credits usage\`) \`--profile\` narrows to one
  profile of the home or the catalog; a name neither knows exits 2 with the known ones.
- **\`--json\`** writes exactly one JSON document to stdout; logs and progress go to stderr.
  Listings (\`data list …\`, \`data errors export\`) write JSON Lines instead — also whenever
  stdout is not a terminal. Every failure with \`--json\` writes one shape, the envelope MCP
  tools return too: \`{"status": …, "error": {…}}\`. \`status\` is \`error\` (or \`rate_limited\`)
  for a refusal before anything ran, else the job's own (\`failed\`, \`indeterminate\`,
  \`cancelled\`, \`invalid_tools\`) with its \`task_id\`, project and media ids beside it;
  \`error\` is always the RFC 9457 problem plus \`retryable\` and \`message\`. The exit code is
  the problem type's (the table below): an unknown \`-t\` tool is a bad parameter, exit 2.
- **Without \`--json\`** a failure prints \`Error: [Class] detail\` and \`Hint: remediation\` on
  stderr. Errors gflow did not raise itself are masked
  (\`Unexpected <Class>; details were logged to logs/errors.log in the gflow home.\`) unless
  GFLOW_CLI_DEBUG_TRACEBACK=1: that file (\`<home>/logs/errors.log\`, 0600, one JSON line per error,
  redacted, rotated at 1 MiB keeping two old files) holds the message, stack and causes under the
  error's \`instance\`; a \`Details:\` line names the file and the entry, and \`-v\` prints them.
- **Text views show stored and remote text escaped.** Prompts, titles, file names, Flow's
  messages and error details can hold anything (any MCP client can write a prompt into the shared
  catalog), so every text view, the progress line, log lines and error messages show control
  characters and escape sequences escaped (\`\\x1b[31m\`, \`\\x1b]0;…\\x07\`, \`\\u202e\`) instead of sending
  them to the terminal; a table cell shows a newline as \`\\n\`. \`--json\` output is left as it is.
- **Progress:** a spinner on stderr names the phase (starting the browser, submitting,
  generating with Flow's status in words — "waiting in Flow's queue", "rendering in Flow", never
  its number —, downloading with a bar of the files done, \`1/2\`, never a byte count it does not
  know; \`item k/N\` or \`link k/N\` in a run of many) and the seconds since the job started, which
  move every second (the command's own clock, not Flow's 5 s polls) — only on a terminal and never
  with \`--json\`. \`--progress jsonl\` (or
  GFLOW_CLI_PROGRESS=jsonl) writes one JSON line per event to stderr instead
  (\`{"type":"progress","at","phase","message"?,…}\`), for scripts, also with \`--json\`;
  \`--progress off\` writes none. An unknown GFLOW_CLI_PROGRESS value means \`auto\`.
  On a terminal a log line written while the spinner runs gets a line of its own (the spinner is
  drawn again below it), logs below \`warning\` stay quiet unless \`-v\` or a log level is set, and a
  generation or a run of many ends with one summary line on stderr: \`✓ Made 2 images in project
  <id>: <dir>/ in 8.3 s\` (\`✗\` when a run of many had failures).
- **Follow-up commands run as printed.** A command gflow prints for you to run next (\`Follow it
  with 'gflow task wait ID'\`, a hint's \`'gflow data download ID'\`) carries the \`--sandbox\` and
  \`--profile NAME\` of the command that printed it, where the printed command takes them, and uses
  the CLI's flag names (the MCP tool names core's hints give beside them are left out on a
  terminal; \`--json\` envelopes are the same on every surface).
- **Where credits may have gone.** A run that stopped after its submit (cancelled, a timeout, a
  worker that died) names the Flow project and the media ids on the terminal too (\`Flow project:\`,
  \`Media:\` under the error; \`task show\` lists \`project\` and \`media\`), not only in \`--json\`.
- **Ctrl-C** (or SIGTERM) cancels the running operation and exits 130; files are written
  atomically, so no partial file is left. A generation stopped before its submit says nothing
  was sent; one stopped after it is recorded \`indeterminate\` at once (credits may have been
  spent), the media ids Flow already named are catalogued, and the message names the task, the
  project and those media with the \`gflow data download <media id>\` that fetches them later
  (spends nothing). A second Ctrl-C leaves at once.
- **Usage statistics:** each command is recorded locally (\`gflow_usage_stats\`); nothing is uploaded.
  \`--version\`, \`--help\`, \`doctor\` and \`mcp setup\` are not recorded.

## Exit codes

| Code | Meaning |
|---|---|
| 0 | success; \`update --check\` offline or \`not_published\` (a status, not a failure) |
| 1 | unexpected error; \`auth status\` not verified |
| 2 | usage: unknown command/option, bad flag value (the schema's message, naming the flag), a malformed id (a Flow project or media id is a UUID: \`--project abc\`, \`image upscale bogus\` are refused before any browser opens or the catalog is asked), a missing or unknown profile (\`auth status\` with no profile too), a media id catalogued under several profiles (name one with \`--profile\`) |
| 3 | Flow session expired (AuthExpiredError) |
| 4 | rate limit / quota |
| 5 | content policy |
| 6 | network |
| 7 | unexpected response shape |
| 8 | no Flow session |
| 9 | timeout |
| 10 | request rejected by Flow (WAF) |
| 11 | configuration (a bad setting, a corrupt MCP client config, a profile in use, no-spend, an output that cannot be written) |
| 12 | login timeout |
| 13 | security boundary (a profile that looks like a path) |
| 14–31, 34–40 | see the error taxonomy (@gflow/errors), e.g. 16 catalog (unreadable, read-only, another gflow version), 22 4K upscale needs Ultra, 36 not on flow.google.com, 37 insufficient credits, 40 a credit budget refused the submit |
| 32 | an id neither the local catalog nor Flow knows: a media id (\`data media\`, \`data download\`, \`image upscale\`, \`video upscale\`), a project id (\`project show\`), a task id (\`task show\`, \`task wait\`, \`task cancel\`) |
| 33 | \`doctor\` found issues |
| 41 | \`doctor --live\` found drift: a control or reply gflow depends on changed (FlowDriftError); paid runs may fail there |
| 42 | catalog busy: another process held the catalog's write lock longer than gflow waits (GFLOW_CLI_CATALOG_BUSY_SECONDS, 30 s); retryable, nothing was changed; the message names the gflow processes at work when their profile leases say |
| 130 | interrupted (Ctrl-C) |

## \`gflow mcp setup\`

| Target | Config file | Root key | Entry |
|---|---|---|---|
| \`claude-desktop\` (default) | Windows \`%APPDATA%\\\\Claude\\\\claude_desktop_config.json\`; macOS \`~/Library/Application Support/Claude/…\`; Linux \`$XDG_CONFIG_HOME\` or \`~/.config\` \`/Claude/claude_desktop_config.json\` | \`mcpServers\` | \`{"command":"gflow","args":["mcp","run"]}\` when the \`gflow\` on PATH is this binary; else \`{"command":"<node>","args":["<…/bin/gflow.js>","mcp","run"]}\` (absolute paths) |
| \`cursor\` | \`~/.cursor/mcp.json\` | \`mcpServers\` | same |
| \`vscode\` | \`<app config root>/Code/User/mcp.json\` | \`servers\` | \`{"type":"stdio",…same}\` |

**What the entry runs.** \`"command": "gflow"\` only when the first \`gflow\` on PATH is the running
binary (the same file once symlinks are followed, as after \`npm install -g\`). Otherwise — no
\`gflow\` on PATH (an npx run, a node_modules install, \`node apps/app/bin/gflow.js\` in the
repository) or another program of that name — the entry is the absolute path of the running node
and of the binary's script, which the client starts whatever its PATH is (run \`mcp setup\` again
after moving either). The output says which and why (\`--json\`: \`entry\`, \`launch\`: \`path\` or
\`absolute\`, \`launch_reason\`).

The entry is merged; other entries are kept. An existing \`gflow\` or \`gflow-cli\` entry is left
untouched ("Already configured"). Invalid JSON, or a root (or root key) that is not an object,
exits 11 and the file is not touched. A pre-existing file is copied to \`<name>.gflow-backup\`
first; the result is written with indent 2 and a trailing newline. VS Code's mcp.json is JSON with
comments: \`//\` and \`/* */\` comments, trailing commas and a byte-order mark are read, and the
entry is inserted into the text (on a line of its own, indented like its neighbours), so every
comment and the layout stay; what cannot be read that way exits 11, untouched. Claude Desktop's
and Cursor's files are strict JSON (a comment there exits 11). \`--no-spend\` is never
written: add it to \`args\` yourself for a read-only server.
**Override the file** with \`--config-path FILE\` or \`GFLOW_CLI_MCP_CONFIG_PATH\` (tests, unusual installs).

## A busy profile: commands wait in line

A profile is driven by one process at a time (its lease, in \`<home>/locks/\`). A command that finds
its profile busy — another generation, a \`--no-wait\` worker, a server — waits in line instead of
failing, and says what it waits behind: on a terminal its progress line, with \`--progress jsonl\`
a \`waiting-for-profile\` event, off a terminal a log line:
\`Queued behind task 6f1c… (profile "work"; gflow CLI, pid 4242, Generate videos (gflow_generate_video)), waiting up to 600 s.\`
It waits up to GFLOW_CLI_LEASE_WAIT_SECONDS (the CLI's default is 600 s: as long as one
generation may take, GFLOW_CLI_TIMEOUT_SECONDS' default), and again names the next task when
the line moves. Waiters go in arrival order. Four generations started together on one profile run
one after another. Only \`GFLOW_CLI_LEASE_WAIT_SECONDS=0\` fails fast (exit 11, \`profile-locked\`,
naming the holder and what it does), except next to an idle server, which hands the profile
over within seconds.

## Background jobs: \`--no-wait\` and \`gflow task\`

\`--no-wait\` (\`image t2i\`, \`image i2i\`, \`video t2v\`, \`video i2v\`, \`video r2v\`) runs every check a
waiting run does, writes the task row (\`pending\`) in the catalog, hands it to a background worker
and prints \`{status: "pending", task_id, task_type}\` (exit 0) once a live worker answers for the
task: it claimed it, or it drains the profile's queue and runs it next (after the task it runs
now) — usually about a second. The worker is the same binary, \`gflow worker run --profile P\`
(internal), detached in its own process group with its output appended to
\`<home>/logs/worker-P.log\` (\`<home>/sandbox/logs/\` under \`--sandbox\`); the job outlives the
command, its terminal and Ctrl-C.

- **A queued task always has a live owner.** A worker that stops before it took the task is
  replaced once (the command says so on stderr: \`The background worker (pid N) stopped before
  taking task X; starting another.\`). If the second one stops too, or none took the task within
  30 s, the command exits 1 (\`daemon-recovery\`) naming the task: it is left \`pending\`, nothing
  was sent to Flow, and the message says where the worker's log is, how to run it (\`gflow task
  wait X\`) or cancel it.
- **One worker per profile.** Each \`--no-wait\` starts one; a worker that finds another draining
  the profile's queue (a lock in \`<home>/locks/\`, with a record of who holds it and which task it
  runs) leaves, and the one draining takes the new task. It runs the queue oldest first with the
  job a waiting run uses, keeps its browser warm between tasks and exits once the queue has
  stayed empty for 5 s. It takes the profile's lease before it claims a task, waiting for a busy
  profile like a server (180 s, GFLOW_CLI_LEASE_WAIT_SECONDS, and again while tasks are pending);
  an idle \`gflow serve\` / \`gflow mcp run\` on the profile hands it over. A running server is not
  asked to run the task itself.
- **A worker that stopped is replaced by the next gflow.** A background task whose worker is gone
  (killed before it claimed the task) is picked up by the next gflow command that works on a
  profile (a generation, \`auth\`, \`credits\`, …) or reads tasks (\`task list|show|wait\`): it starts a
  worker and says so on stderr, once per task: \`Picked up task X (profile "P") queued at T: its
  worker had stopped before taking it; a new background worker (its log: …) runs it now.\` A
  running \`gflow serve\` / \`gflow mcp run\` looks every 15 s and runs such tasks itself. A task is
  never run silently inside another command.
- **Its settings are the command's.** The worker gets the command's environment, working
  directory and setting flags (\`-v\` included), GFLOW_CLI_HOME explicitly, and the catalog and
  output directory (outside the sandbox) or the simulator to attach to (GFLOW_CLI_SANDBOX_SIM,
  inside it). The job's output directory, timeout, default project and GFLOW_CLI_AGENT_CONFIRM
  travel in the task row, so a worker already running for the profile writes where the queuing
  command said; its browser settings (headless, executable, proxy) are its own.
- **\`gflow task list\`** (\`--status\`, \`--profile\`, \`--limit\`/\`--offset\`; JSON Lines with \`--json\`
  or when piped), **\`task show ID\`** (the row, the result envelope once completed, the problem
  details once it failed or was cancelled), **\`task wait ID\`** (a line per phase on stderr,
  \`task 6f1c2a3b: Submitting 12s\`; exits with the job's code: 0 completed, otherwise the error's —
  130 cancelled or stopped after the submit, 1 a worker that died after the submit or a task
  nobody can run, 9 when \`--timeout SECONDS\` runs out while a live process still answers for the
  task — the message says which; a pending task's lines say who runs it next; \`--json\` prints the
  final envelope, as a waiting run would), and
  **\`task cancel ID\`** (a pending task is cancelled at once; a running one is asked to stop through
  its row and settles \`cancelled\` before its submit click, \`indeterminate\` after it — credits may
  have been spent — never \`failed\`; \`--timeout\` bounds the wait for it, default 60 s). An unknown
  id exits 32. Tasks live in a catalog: a task queued with \`--sandbox\` is read with \`--sandbox\`.
- **A killed worker** (SIGKILL, a crash) leaves its row \`working\` until the next gflow opens the
  catalog (any command, \`task show\` included). The submit click is the line: a job that had
  reached it is settled \`indeterminate\` (credits may have been spent; it is never run again);
  before it nothing was spent, so the task is queued again (\`pending\`, at most three times) and
  picked up as above, or \`cancelled\` when a cancel had been asked for. A waiting run's task
  (without \`--no-wait\`) is settled \`failed\` instead: its caller is gone. \`task wait\` never calls a
  task whose owner is gone "running": it settles or picks it up, or says what to do. SIGTERM stops
  a worker like Ctrl-C: the running job is cancelled and settled at once.
- **One job model.** An MCP \`wait=false\` generation is a row of the same queue, run in the
  server's own background; \`gflow task …\` reads and cancels it too, and the MCP task tools
  (\`gflow_task_get\`, \`gflow_task_wait\`, \`gflow_task_cancel\`, \`gflow_task_list\`) and the Tasks
  extension's \`tasks/get\` / \`tasks/cancel\` reach a task a CLI worker runs.

## \`gflow data sync\`

Every run records the names Flow lists its media by (what gflow finds an asset by in the pickers,
to attach it in place instead of uploading it again) and its project's title: a clip's from its
submit reply, an image's from its reply, a name neither reply gives from the media's tile, a
project's from its header. \`data sync\` fills what the catalog still lacks (media recorded before,
or a run whose reply was lost) from the project pages in Flow: a browser opens on the profile,
nothing is submitted or spent. It reads only projects missing a title or holding an unnamed asset,
newest first (\`--max-projects\`, 50), or one (\`--project ID\`), or every one again (\`--all\`);
\`--dry-run\` reports without writing. For each media it takes the name its tile shows, else the
\`@\` picker's option with the tile's thumbnail. A project page that cannot be read (gone, another
account's) is reported on its line and the others go on: exit 34. Refused (11) under
\`GFLOW_CLI_HISTORY_PROMPTS=redacted\`, which keeps no names.

## \`gflow update\`

\`update --check [--json]\` asks the npm registry (\`GFLOW_CLI_UPDATE_REGISTRY\`, else
\`npm_config_registry\`, else registry.npmjs.org; package \`GFLOW_CLI_UPDATE_PACKAGE\`, default
\`@gflow/app\`; 3 s timeout) and returns \`{status, installed, latest, update_available, installer,
command, upgraded:false, notes}\`. Offline is a status (exit 0), and so is \`not_published\`: the
registry has no such package (\`@gflow/app\` is not published; gflow is installed from a checkout),
so there is nothing to compare with, and \`command\` says how a checkout install upgrades
(\`git pull && npm run pack:app && npm install -g ./dist/gflow.tgz\`). gflow never upgrades itself: stop
running \`gflow mcp run\` / \`gflow serve\` processes, then run the printed command.

## \`gflow doctor\`

Checks, \`--json\` → \`{overall_status: ok|issues, fixes?, checks[{check, severity, detail,
remediation?, ids?, count?}]}\`: the Node runtime against the supported range, the home (a directory
you can read and write, not writable by others; not there yet, one gflow can create: a file in its
place or an unwritable parent fails), settings load, config.toml parses, settings still set under
retired names, the browser
(GFLOW_CLI_BROWSER_EXECUTABLE or a system Chrome/Chromium), profiles without an account marker,
strategy marker or cookie store, each profile's last live check (\`flow.live\`, below), and the catalog: its write-ahead log (large, or a \`-shm\` without
it), SQLite's \`quick_check\`, migrations (drift, newer schema, pending), tasks \`working\` and
operations \`started\` for more than 24 h, catalogued files missing on disk, assets without a
display name and projects without a title (both filled by \`gflow data sync\`, which reads them
from the projects' pages in Flow and spends nothing), local files without a SHA-256. Each finding names the rows or profiles it concerns
(at most 10, with the count) and the one command that fixes it; the text form lists them under
"To fix". A catalog that does not exist yet is not created. Exit 0, or 33 on a \`warn\` or \`fail\`.

\`--fix\` first repairs what is safe without asking, then checks (\`fixes[{check, outcome:
fixed|nothing_to_do|failed, detail}]\`): the home tightened to mode 700, the write-ahead log folded
into the catalog (it says so when another process holds it), the rows of missing local files
dropped (rows only, as \`gflow data prune\`), the SHA-256 recorded of unhashed files that still have
their recorded size. It deletes no file and sends nothing; the other findings stay yours to fix.

### \`gflow doctor --live\`: a free check of Flow itself

\`gflow doctor --live [--profile NAME] [--capture DIR] [--json]\` checks the real Flow on the profile's
signed-in account instead of the home: in a scratch project it creates once (titled "gflow canary
(scratch, safe to delete)", remembered in the profile's \`.gflow_flow_check.json\`) it walks every
control a generation needs with the generation path's own anchors — the gallery's new-project
button, the composer (agent mode is switched off as a run does), the prompt editor, the settings
pane and its mode, submode, aspect, duration and count radios in video and image mode, the model
menus against gflow's model table (one result per model: offered, not offered, or ambiguous), the
cost line, the Frames chips and their picker, the \`@\` picker, the toolbar \`+\` and its Upload entry
(the file chooser is opened and left unanswered), the header's balance, the submit button (it
types a probe text, waits for the button to enable, and clears it), the agent-mode chip, and the
agent-only composer when the account has one — and reads the read-only replies it meets (the asset
search, a create-project reply) with gflow's own parsers. It **submits nothing and spends nothing**:
no probe clicks a submit, and every submit the page could send is held and aborted in the browser.
It puts the pane's mode and submode back as it found them.

Each capability is \`ok\`, \`drifted\` (what gflow expected, what the page showed instead: the
control named and why it could not be used) or \`not offered\` on this account (an agent-only
composer has no settings pane; the scene editor's extend entry is not driven yet). \`--json\` →
checkFlow's output: \`{status: ok|drifted, exit_code, profile, project_id, project_created, arm,
build_label, checked_at, summary, capabilities[{id, title, status, expected, found}], replies[…],
capture}\`. Exit 0, or **41** when anything drifted; the usual codes when the check cannot run (2 no
profile, 3 signed out, 39 no Flow access, 15 the browser closed). \`--fix\` does not go with it;
\`--capture\` and \`--profile\` need it.

\`--capture DIR\` also writes a redacted capture bundle to attach to an issue: \`manifest.json\` (the
findings and Flow's build label), \`anchors.json\` (each control's outer HTML with every text and
identifying value masked: letters become \`x\`, ids, labels, alt texts and URLs are dropped, only
classes, roles, states and Material ligatures stay) and \`replies.json\` (the read-only replies'
shapes: keys, types and array lengths, never values). A last check refuses to write a bundle that
would hold an email address, a signed URL, a token, a cookie, a URL with a query or an id (exit 13,
nothing written). In a checkout, \`pnpm --filter @gflow/flow-sim capture:fixture -- DIR --name NAME\`
turns a bundle into a simulator fixture (packages/flow-sim/README.md § Captured fixtures).

The last check is remembered: plain \`gflow doctor\` shows it per profile (\`flow.live\`: ok, info
when older than a day or never run, a warning when it drifted), and a paid run says in one line on
stderr when the profile's last check is older than a day or never ran
(\`GFLOW_CLI_FLOW_CHECK_REMINDER=false\` turns that off).

## \`gflow instructions\`

A project's persistent Agent-mode brief: a master switch (\`toggle-mode --on|--off\`) and
instruction cards (\`list\`, \`add TITLE --text … [--ref …] [--disabled]\`, \`enable\` / \`disable\` /
\`rm\` by TITLE, case-insensitive, or \`--id\`, and \`apply FILE\`). Each write drives the editor's
brief panel the way a person does, then reloads the editor and compares what Flow shows with what
was asked; \`--json\` prints the card set as Flow shows it after the write. A difference is exit 7
(the cards are left as Flow shows them, with an incident bundle); an ambiguous title is exit 11 and
a missing card 32, both before anything is clicked. \`--ref\` (repeatable) is a Flow media id, a
local image (a path relative to the current directory; PNG/JPEG/WebP/GIF, ≤ 20 MB; uploaded into
the project) or a saved character's id or name. \`apply FILE\` replaces every card (destructive):
cards whose title matches a live card keep it and its id, the rest are removed or added. The file is
JSON (\`[{"title", "text", "ref"?: […], "enabled"?: true}]\` or \`{"cards": […]}\`) or TOML
(\`[[cards]]\` tables with \`title\`, \`text\`, \`ref\`, \`enabled\`), chosen by the \`.json\` / \`.toml\`
extension (another name is tried as JSON, then TOML); a file that is neither, or a card with a
missing or unknown key, is exit 2 with nothing sent. How flow.google.com's brief panel looks was
never captured (docs/KNOWN_ISSUES.md).

## Many prompts in one run

\`gflow image t2i\` takes several prompts (arguments, \`--prompts-file FILE\` with one per line,
blank lines and \`#\` comments skipped, and \`--stdin\`), up to 50; \`gflow image batch MANIFEST\`
(\`.tsv\` rows \`prompt<TAB>count<TAB>aspect_ratio<TAB>model\`, where a first row of column names is
a header that may order them, or \`.json\` \`[{prompt, count?, aspect_ratio?, model?}]\`; \`text\` is
read as \`prompt\`, another key is exit 2) and \`gflow run --config FILE\` (JSON or TOML: \`{prompts: [{text,
aspect_ratio?, model?, count?, output_filename?}]}\`, with \`--output-dir\`) run the same way,
through core's \`generateBatch\` (MCP: \`gflow_generate_batch\`): every prompt is checked before
anything is sent (one bad prompt refuses the run, exit 2); then one browser session and one Flow
project for the whole run (\`--project\`, else the one the first prompt creates), a random pause
between submits (\`--jitter MIN-MAX\` seconds, \`N\` or \`0\`; default \`GFLOW_CLI_JITTER_RANGE\`,
0.5–1.5 s), and each prompt its own task, catalogued and downloaded as it finishes.
\`--continue-on-error\` is the default; \`--fail-fast\` stops at the first failed prompt (the rest
are \`skipped\`). The exit code is the highest per-prompt code. \`--json\` prints one document:
\`{status: completed|partial|failed, flow_project_id, items[] (one generation envelope per prompt),
pauses_ms[], exit_code}\`. \`-o\`, the entity flags and \`-i\` take one prompt only (exit 2 with
several); \`--out DIR\` writes each file into DIR named by its media id.

## Runs of many steps: one task, each step paid once

A batch (\`image t2i\` with several prompts, \`image batch\`) and a chain (\`video chain\`) are one
**run**: a task of the queue whose steps (a prompt, a link) are tasks of their own. Each step's
state is written before its submit click, so whatever stops the run (Ctrl-C, a kill, a crash, a
failed step, \`task cancel\`) it never pays twice:

- \`gflow task resume RUN_ID\` continues it: done steps are kept, a step that may have been
  submitted is **recovered by its ids** (its project and media, waited for and downloaded), and only
  steps that never reached their submit are submitted. A step whose project lists nothing it made
  is *unconfirmed* and is never sent again unless you say so (\`--resubmit-unconfirmed\`).
  \`video chain --resume-from RUN_ID\` is the same for a chain.
- A run that did not complete says, under its table, each step that **may have spent credits**
  with its Flow project and media ids, and the resume command to run.
- \`--no-wait\` hands the whole run to a background worker and prints its id with the commands to
  follow it (\`task wait\`), see it (\`task show\`: its steps, the running one with its phase) and
  stop it (\`task cancel\`: before its next submit).
- \`--idempotency-key KEY\` (every generation, batch and chain): the same command with the same key
  (an agent retrying after a timeout) answers the earlier task or run instead of paying again.
- Progress is one scale for the whole run: steps done out of steps, the step's phase as the text,
  a heartbeat at least every 5 s and 100% once, at its end.

## Video chains

\`gflow video chain story.jsonl\` makes a story longer than one clip: one JSON link per line,
\`{"prompt", "model"?, "duration"?, "aspect"?}\` (blank lines and \`#\` comments skipped; at most
\`--max-links\`, default 10, never more than 20). Link 1 is text-to-video; each later link is
image-to-video from the **last frame** of the clip before: gflow takes it from the downloaded clip
with the browser it drives (a \`<video>\` seeked to the end, drawn to a canvas), writes it beside the
clip as \`link-<n>.last.png\` and uploads it as the Start frame under a run-unique name. The plan is
checked whole before anything is sent; \`--dry-run\` prints it with Flow's price of each link (read in
the composer as a text-to-video estimate per distinct model, duration and aspect — that an
image-to-video link costs the same is not captured) and submits nothing. Without \`-y\` the command
asks before spending (and refuses, exit 2, where there is no terminal to ask). Veo models only
(Omni's image-to-video requests were never captured). The chain's state is in the catalog after
every link: \`--resume-from CHAIN_ID\` continues after a crash, a kill or a failed link and makes
only the links that are not done; \`gflow video chain-status CHAIN_ID\` shows it. The clips go to
\`--out-dir\` (default \`<output>/chains/<chain id>\`). \`--stitch\` joins the links into one MP4 once all are made (\`-o\`, default \`chain.mp4\` in that folder; an existing file needs \`--force\`) with an OpenTimelineIO timeline beside it. MCP: \`gflow_generate_chain\` (with
\`wait: false\`, then \`gflow_chain_status\`).

## Stitching clips

\`gflow video stitch A B C… -o out.mp4\` joins clips into one MP4 on this machine, in order, and
spends nothing: no browser, no Flow. Each clip is an MP4 file or the media id of a catalogued video
with a local copy (download one first with \`gflow data download MEDIA_ID\`). Nothing is re-encoded
(the packets are copied with mediabunny), so it takes moments and loses nothing; the price is that
the clips must be encoded alike — the same size, codec, profile and encoder settings, and sound in
all or none — and two that are not are refused (exit 2) naming both and the difference.
\`--overlap S\` cuts S seconds from the end of every clip but the last (\`--overlap-at S\`, repeated
once per join, sets each join on its own): an extension made in Flow's scene editor starts inside its
source's last second, so \`--overlap 1\` removes that repeat. \`-o\` must name an \`.mp4\`; an existing
file is refused unless \`--force\`. When some clips are given as media ids, the catalog records the
stitch as an operation with those clips as its inputs. MCP: \`gflow_stitch_videos\` (inputs and output
inside the output directory). The JSON result: \`{path, bytes, sha256, seconds, frames, width, height,
codec, audio, clips[{input, media_id, seconds, frames, trimmed_seconds}], operation_id}\`.

## Extensions and movies

\`gflow video extend MEDIA_ID "prompt"\` continues a finished clip from its last second in Flow's
scene editor (one paid clip; the page's own submit must name the clip's workflow id and its last
second at 24 fps, or gflow stops it before it leaves the browser). \`-n N\` extends N times in a row,
each extension from the one before; \`--stitch -o long.mp4\` joins the source and its extensions
into one MP4 (the second each extension repeats is cut) with an OpenTimelineIO timeline beside it
(\`long.otio\`). With \`-n\` or \`--stitch\` the extensions are a movie of one scene: one durable run
(\`--resume-from MOVIE_ID\` continues it, each extension paid once), and the result names each
extension's media id and the stitched length.

\`gflow movie run story.yaml\` makes a movie from a storyboard (\`gflow movie template\` prints a
commented one). Each scene is a new clip — text-to-video (\`prompt\`), image-to-video (\`start:
previous\` for the last frame of the scene before, or an image file relative to the storyboard, or
an image media id), reference-to-video with the project's saved characters (\`characters: [Mara]\`,
which needs \`project:\`) — or an existing video of the profile (\`media_id\`), each with optional
\`extend:\` prompts. The whole storyboard is checked before anything is sent: a problem names its
scene and field (\`scenes[2].characters\`, exit 2; an unknown media id exit 32). \`gflow movie plan
story.yaml\` (or \`movie run --dry-run\`) prints every clip with Flow's quote and the whole story's
price, submitting nothing; \`movie run\` shows the same plan and asks once before the first submit
(\`-y\` skips the question; without a terminal it refuses). With a budget set
(\`GFLOW_CLI_MAX_CREDITS_PER_CALL\`, \`GFLOW_CLI_DAILY_CREDIT_BUDGET\`) the whole story's quote is
checked first (exit 40, nothing sent). The movie is one durable run: each clip's state is written
before its submit, so \`gflow movie run --resume-from MOVIE_ID\` (or \`gflow task resume\`) after a
kill, a cancel or a failure never pays twice; \`gflow movie status MOVIE_ID\` shows it. When every
clip is made they are stitched into \`-o\` (default \`movie.mp4\` in \`--out-dir\`, itself
\`<output>/movies/<movie id>\`; an existing file is refused without \`--force\`) with the timeline
beside it: every clip with its file, media id, in/out points and prompt, which an editor imports
(OpenTimelineIO). \`--no-stitch\` keeps the clips only. MCP: \`gflow_make_movie\`,
\`gflow_movie_status\`.

## A fleet: several machines

With \`--fleet URL\` (or \`GFLOW_FLEET_URL\`), a PostgreSQL database every machine reaches, the
commands that submit runs put them on the fleet's queue instead of this machine's, and any worker
holding the profile runs them: \`gflow worker --fleet URL\` on each machine serves the profiles
signed in there (\`--profile\` to pick, \`--pools\` / \`GFLOW_FLEET_POOLS\` to put them in pools).
A run names a profile or a pool (\`--profile-pool studio\`), which the fleet routes to a profile
with the quota and credits for that kind of work and moves on when Flow refuses one for its
account. \`--wait\` follows the run wherever it runs; \`gflow task …\` reads it from any machine;
\`gflow serve --fleet URL\` is the MCP front door and the gallery over the shared catalog. Without
the setting nothing changes. The recipe, routing and failure behaviour: docs/FLEET.md.

## Spend control: quotes, \`--dry-run\`, budgets

Before every submit gflow reads what Flow says it will cost: the settings pane's cost line
("Generating will use **N** credits", under the count row) once the composer is configured, or on an
agent-only composer the agent's credit confirmation. The quote is in every result
(\`credits_quoted\`; \`null\` when Flow showed no readable line — a warning in the log, never a
failure) and in the catalog's operation row; after a video gflow reads the balance again (one page
load of flow.google.com) and reports the drop as \`credits_spent\` (\`null\` when it cannot be
measured: no balance shown, an unchanged balance, a failed read).

- **\`--dry-run\`** (every generation command: \`image t2i\` (one or many prompts), \`image i2i\`,
  \`image batch\`, \`run --config\`, \`video t2v|i2v|r2v\`) does all the work up to the click — checks,
  project, references uploaded and attached, settings set — reads the quote and the balance, and
  prints \`{status: "estimated", credits_quoted, balance, plan, budget, uploads}\` (exit 0) without
  submitting; uploads it had to make stay in the project and are listed. \`budget.would_refuse\`
  says whether a real submit would pass the budgets. Runs of many prompts estimate every one, sum
  \`credits_quoted\` and say \`status: "estimated"\` too. On an agent-only composer a video's quote comes from the agent's
  confirmation, so its dry run sends the directive and rejects the confirmation (nothing is
  generated or charged); an image dry run there sends nothing and has no quote.
- **\`GFLOW_CLI_MAX_CREDITS_PER_CALL\`** refuses a submit quoted above it; **\`--max-credits N\`** can
  only lower it for one command. **\`GFLOW_CLI_DAILY_CREDIT_BUDGET\`** refuses a submit whose quote
  would take the profile's quoted total for the local day past it — across every gflow process on
  the machine (the catalog decides in one transaction). A refusal is \`budget-exceeded\`, exit 40,
  not retryable, raised before the click (nothing sent, nothing spent); its hint names the setting
  and today's total. **With a budget set, a submit whose quote cannot be read is refused too**
  (fail closed); so is an agent-only turn that shows no confirmation before it spends (an image
  turn, or \`GFLOW_CLI_AGENT_CONFIRM=never\`).
- **\`gflow credits usage [--days N] [--profile P] --json\`**: quoted (and measured) credits per local
  day, model and surface, today's total and what the daily budget leaves; dry runs are counted
  apart. \`gflow data usage\` / \`gflow_usage_stats\` carry the same numbers (\`credits\`).

## Command reference
`;

/** The groups whose bare command takes options of its own (`gflow worker --fleet URL`): a section each, before their leaves. */
async function bareGroups(def: CommandDef, at: readonly string[]): Promise<Map<string, CommandDef>> {
  const out = new Map<string, CommandDef>();
  const group = groupSpecOf(def);
  if (!group) return out;
  if (group.bare?.flags && at.length > 0) out.set(at.join(' '), def);
  for (const [name, entry] of Object.entries(group.children)) {
    const child = 'load' in entry && typeof entry.load === 'function' ? await entry.load() : (entry as CommandDef);
    for (const [key, value] of await bareGroups(child, [...at, name])) out.set(key, value);
  }
  return out;
}

const root = buildCli({ version: '0.0.0', extraCommands: APP_COMMANDS });
const sections: string[] = [GUIDE];
const bare = await bareGroups(root, []);
const section = async (def: CommandDef, p: readonly string[]): Promise<string> =>
  `### gflow ${p.join(' ')}\n\n\`\`\`text\n${(await renderHelp(def, p)).trimEnd()}\n\`\`\`\n`;
for (const { path: p, def } of await walkCli(root)) {
  const parent = p.slice(0, -1).join(' ');
  const group = bare.get(parent);
  if (group !== undefined) {
    sections.push(await section(group, p.slice(0, -1)));
    bare.delete(parent);
  }
  sections.push(await section(def, p));
}
const target = path.resolve(import.meta.dirname, '..', '..', '..', 'docs', 'CLI.md');
fs.writeFileSync(target, `${sections.join('\n')}`);
console.log(`wrote ${target}`);
