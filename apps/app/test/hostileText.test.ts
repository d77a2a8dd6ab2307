// Issue 40, done when: a prompt holding `\e[31m` and `\e]0;title\a` prints escaped in every text
// view. Stored and remote text (prompts, titles, file names, error details, task messages) that
// any MCP client can plant in the shared catalog reaches the terminal through one sanitiser;
// `--json` is left as it is (JSON escapes by itself).
import fs from 'node:fs';
import path from 'node:path';
import { ContentPolicyError } from '@gflow/errors';
import { HOSTILE_PROMPT, HOSTILE_PROMPT_SHOWN, removeDir } from '@gflow/testkit';
import type { CliIo } from '@gflow/cli';
import { cli, cliEnv, makeHome } from '@gflow/testkit/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGflow } from '../src/index.js';
import { withCatalog, seedId } from './catalogSeed.js';

const MEDIA = 'c0ffee00-0000-4000-8000-00000000e5c1';
const PROJECT = seedId('proj-hostile');
const TASK_DONE = 'task-hostile-failed';
const TASK_PENDING = 'task-hostile-pending';
let home: string;

async function seedHostile(): Promise<void> {
  const file = path.join(home, 'out', 'images', `owl \u001b]0;file\u0007.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, 'png');
  await withCatalog(home, (catalog) => {
    catalog.projects.upsert({ profile: 'ana', flowProjectId: PROJECT, title: `Owls ${HOSTILE_PROMPT}` });
    const op = catalog.operations.start({
      profile: 'ana',
      command: 'image t2i',
      mode: 't2i',
      flowProjectId: PROJECT,
      prompt: HOSTILE_PROMPT,
      model: 'nano2',
    });
    const asset = catalog.assets.record({ profile: 'ana', flowMediaId: MEDIA, kind: 'image', flowProjectId: PROJECT });
    catalog.assets.link(op.id, asset.id, 'output', 0);
    catalog.localFiles.record({ assetId: asset.id, path: file, bytes: 3 });
    catalog.operations.succeed(op.id);
    const failed = catalog.operations.start({ profile: 'ana', command: 'video t2v', mode: 't2v', prompt: 'waves' });
    catalog.operations.fail(failed.id, { errorType: 'content-policy', errorDetail: `Flow said: ${HOSTILE_PROMPT}` });
    for (const taskId of [TASK_DONE, TASK_PENDING])
      catalog.tasks.create({
        taskId,
        profile: 'ana',
        taskType: 'generate_image',
        payload: { input: { prompt: HOSTILE_PROMPT } },
      });
    catalog.tasks.claim(TASK_DONE, 'test:1:x');
    catalog.tasks.fail(TASK_DONE, 'test:1:x', new ContentPolicyError(`Refused: ${HOSTILE_PROMPT}`));
  });
}

beforeAll(async () => {
  home = makeHome('hostile-text');
  await seedHostile();
});
afterAll(() => removeDir(home));

/** Neither raw ESC nor BEL nor a C1 CSI anywhere in what a view printed. */
function expectNoRawControls(what: string, text: string): void {
  expect(/[\u001b\u0007\u009b]/.test(text), `${what} printed a raw escape: ${JSON.stringify(text.slice(0, 400))}`).toBe(
    false,
  );
}

/** A view run in this process with a terminal for stdout and stderr (text views are for terminals). */
async function onTerminal(args: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout: { write: (chunk: string) => (out += chunk), isTTY: true, columns: 200 },
    stderr: { write: (chunk: string) => (err += chunk), isTTY: true, columns: 200 },
    stdinIsTTY: false,
  };
  const env = { ...cliEnv(home), GFLOW_CLI_PROGRESS: 'off' };
  const code = await runGflow(args, { io, env, cwd: home });
  return { code, out, err };
}

const RED = '\\x1b[31mRED\\x1b[0m';
const FILE = 'owl \\x1b]0;file\\x07.png';
/** Each view, and what of the stored text it shows (escaped); null when it shows none of it. */
const VIEWS: ReadonlyArray<readonly [string, readonly string[], string | null]> = [
  ['data media', ['data', 'media', MEDIA], RED],
  ['data list images', ['data', 'list', 'images'], FILE],
  ['data list projects', ['data', 'list', 'projects'], RED],
  ['data list errors', ['data', 'list', 'errors'], RED],
  ['project list', ['project', 'list'], RED],
  ['project show', ['project', 'show', PROJECT], RED],
  ['task list', ['task', 'list'], null],
  ['task show (failed)', ['task', 'show', TASK_DONE], RED],
  ['task show (pending)', ['task', 'show', TASK_PENDING], null],
  ['task wait (failed)', ['task', 'wait', TASK_DONE], RED],
];

describe('stored hostile text in every text view (issue 40)', () => {
  it.each(VIEWS)('%s shows it escaped', async (name, args, shown) => {
    const { out, err } = await onTerminal(args);
    expectNoRawControls(name, out + err);
    if (shown !== null) expect(out + err, name).toContain(shown);
  });

  it('data media shows the whole prompt and the file name escaped', async () => {
    const result = await cli(['data', 'media', MEDIA], { home });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain(HOSTILE_PROMPT_SHOWN);
    expect(result.stdout).toContain('owl \\x1b]0;file\\x07.png');
  });

  it('--json leaves the stored text as it is (JSON escapes it)', async () => {
    const result = await cli(['data', 'media', MEDIA, '--json'], { home });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain('\\u001b[31mRED');
    expect(JSON.stringify(JSON.parse(result.stdout))).toContain(JSON.stringify(HOSTILE_PROMPT).slice(1, -1));
  });
});
