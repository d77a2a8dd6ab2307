// The commands that drive Flow: with --sandbox against one simulator in the test process (one
// sandbox home, signed in once), chained in this order: project → image → video → upscale/download
// (later cases use what earlier ones made). Run by ../sandboxCommands.browser.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { type FlowSim, makePng } from '@gflow/flow-sim';
import { SANDBOX_ACCOUNT as SANDBOX_EMAIL } from '@gflow/core/sandbox';
import { expect } from 'vitest';
import * as S from '../outputSchemas.js';
import {
  type CaseTable,
  type FailureCase,
  OP,
  expectValid,
  fieldOf,
  libraryRun,
  operationNamed,
  rowsOf,
} from './harness.js';

/** What ../sandboxCommands.browser.test.ts adds: the simulator the sandbox runs against. */
export interface SandboxFixture {
  readonly sim: FlowSim;
}

/** What earlier cases produced, for the chained ones. */
const state: {
  batchId?: string;
  chainId?: string;
  movieId?: string;
  projectId?: string;
  imageId?: string;
  taskId?: string;
  imageFile?: string;
  videoId?: string;
} = {};

function need<K extends keyof typeof state>(key: K): NonNullable<(typeof state)[K]> {
  const value = state[key];
  if (value === undefined) throw new Error(`an earlier case did not produce ${key}`);
  return value as NonNullable<(typeof state)[K]>;
}

const completed = (p: Record<string, unknown>): void => {
  expect(p['status'], JSON.stringify(p['error'] ?? p)).toBe('completed');
  expect((p['files'] as unknown[]).length).toBeGreaterThan(0);
};

const instr = (sub: string, ...rest: string[]): string[] => [
  'instructions',
  sub,
  ...rest,
  '--project',
  need('projectId'),
];

/** One case per command, keyed by its path, in the order the chain runs. */
export const SANDBOX_CASES: CaseTable<SandboxFixture> = {
  'auth status': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['auth', 'status'], { sandbox: true });
      expect(p).toMatchObject({ status: 'authenticated', profile: 'sandbox', user_email: SANDBOX_EMAIL });
    },
  },
  'auth login': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['auth', 'login', '--profile', 'second', '--account', SANDBOX_EMAIL], { sandbox: true });
      expect(p).toMatchObject({ profile: 'second', user_email: SANDBOX_EMAIL });
    },
  },
  'auth renew': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['auth', 'renew', '--profile', 'second'], { sandbox: true });
      expect(p['profile']).toBe('second');
    },
  },
  'auth list': {
    output: { op: true, view: fieldOf('profiles') },
    run: async (t) => {
      const rows = (await t.json(['auth', 'list'], { sandbox: true })) as unknown as Array<{ name: string }>;
      expect(rows.map((r) => r.name).sort()).toEqual(['sandbox', 'second']);
    },
  },
  // Bare `gflow auth` with profiles present: the profile list, as `auth list` prints it.
  auth: {
    output: { schema: fieldOf('profiles')(operationNamed('listProfiles').output) },
    run: async (t) => {
      const rows = (await t.json(['auth'], { sandbox: true })) as unknown as Array<{ name: string }>;
      expect(rows.map((r) => r.name).sort()).toEqual(['sandbox', 'second']);
    },
  },
  'auth use': {
    output: OP,
    run: async (t) => {
      expect(await t.json(['auth', 'use', 'second'], { sandbox: true })).toMatchObject({ default_profile: 'second' });
      // auth use takes effect in the sandbox home (sandboxProfiles.browser.test.ts): the chain goes on on `sandbox`.
      expect(await t.json(['auth', 'use', 'sandbox'], { sandbox: true })).toMatchObject({ default_profile: 'sandbox' });
    },
  },
  'credits user': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['credits', 'user'], { sandbox: true });
      expect(p).toMatchObject({ status: 'ok', profile: 'sandbox', credits: expect.any(Number) });
    },
  },
  'credits list': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['credits', 'list'], { sandbox: true });
      expect((p['profiles'] as unknown[]).length).toBe(2);
    },
  },
  'auth logout': {
    output: OP,
    run: async (t) => {
      expect(await t.json(['auth', 'logout', '--profile', 'second', '-y'], { sandbox: true })).toMatchObject({
        profile: 'second',
      });
    },
  },
  'project create': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['project', 'create', '--title', 'Outputs test'], { sandbox: true });
      state.projectId = String(p['project_id']);
    },
  },
  'project rename': {
    output: OP,
    run: async (t) => {
      expect(
        await t.json(['project', 'rename', need('projectId'), 'Outputs test, renamed'], { sandbox: true }),
      ).toMatchObject({ title: 'Outputs test, renamed' });
    },
  },
  'image t2i': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['image', 't2i', 'a red fox in fresh snow', '--project', need('projectId')], {
        sandbox: true,
      });
      completed(p);
      state.imageId = String(p['flow_media_id']);
      state.imageFile = String((p['files'] as string[])[0]);
    },
  },
  'image i2i': {
    output: OP,
    run: async (t) =>
      completed(
        await t.json(['image', 'i2i', 'the same fox, in watercolour', '--ref', need('imageId')], { sandbox: true }),
      ),
  },
  'image upload': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['image', 'upload', need('imageFile'), '--project', need('projectId')], { sandbox: true });
      expect(p['project_id']).toBe(need('projectId'));
    },
  },
  'image upscale': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['image', 'upscale', need('imageId'), '--scale', '2k'], { sandbox: true });
      expect(fs.existsSync(String(p['path']))).toBe(true);
      // The upscaled file is catalogued as a local copy of the media, with its hash.
      const copies = (await t.run(['data', 'media', need('imageId'), '--json'], { sandbox: true })).stdout;
      expect((JSON.parse(copies) as { files: unknown[] }).files).toContainEqual(
        expect.objectContaining({ path: p['path'], bytes: p['bytes'], sha256: expect.any(String), exists: true }),
      );
      // A media this home's catalog never saw, upscaled with its project named: the asset is recorded too.
      const other = { sandbox: true, env: { GFLOW_CLI_HOME: path.join(t.home, 'another-home') } };
      const fresh = await t.json(
        ['image', 'upscale', need('imageId'), '--scale', '2k', '--project', need('projectId')],
        other,
      );
      const shown = await t.run(['data', 'media', need('imageId'), '--json'], other);
      expect(JSON.parse(shown.stdout), shown.stderr).toMatchObject({
        media_id: need('imageId'),
        kind: 'image',
        project_id: need('projectId'),
        files: [expect.objectContaining({ path: fresh['path'], exists: true })],
      });
    },
  },
  'image batch': {
    output: OP,
    run: async (t) => {
      // A TSV whose first row names the columns: that row is a header, not a prompt.
      const tsv = path.join(t.home, 'batch.tsv');
      fs.writeFileSync(tsv, 'prompt\taspect_ratio\na lighthouse at dawn\t16:9\n');
      const p = await t.json(['image', 'batch', tsv, '--jitter', '0'], { sandbox: true });
      expect(p).toMatchObject({ status: 'completed', exit_code: 0, items: [{ status: 'completed' }] });
      expect(p['items']).toHaveLength(1);
      state.batchId = String(p['task_id']);
      const manifest = path.join(t.home, 'batch.json');
      // A manifest with an entry the run refuses is refused whole, before anything is sent.
      fs.writeFileSync(manifest, JSON.stringify([{ prompt: 'fine' }, { text: 'four is the most', count: 9 }]));
      const refused = await t.problem(['image', 'batch', manifest], { sandbox: true, code: 'bad-parameter' });
      expect(String(refused['detail'])).toMatch(/items\.1\.count/);
    },
  },
  'task wait': {
    output: OP,
    run: async (t) => {
      // --no-wait hands the job to a detached worker; task wait follows the row to the envelope.
      const queued = await t.run(['image', 't2i', 'a heron at dusk', '--no-wait', '--json'], { sandbox: true });
      expect(queued.exitCode, queued.stderr.slice(-1500)).toBe(0);
      expectValid(operationNamed('generateImage').output, JSON.parse(queued.stdout), 'image t2i --no-wait');
      state.taskId = String((JSON.parse(queued.stdout) as { task_id: string }).task_id);
      completed(await t.json(['task', 'wait', state.taskId], { sandbox: true }));
    },
  },
  'task show': {
    output: { op: true, view: fieldOf('task') },
    run: async (t) => {
      const p = await t.json(['task', 'show', need('taskId')], { sandbox: true });
      expect(p).toMatchObject({ task_id: need('taskId'), status: 'completed', runner: { surface: 'worker' } });
      await t.problem(['task', 'show', 'no-such-task'], { sandbox: true, code: 'reference-not-found' });
    },
  },
  'task list': {
    output: { op: true, view: rowsOf('items') },
    run: async (t) => {
      const rows = await t.rows(['task', 'list', '--status', 'completed'], { sandbox: true });
      expect(rows.map((r) => r['task_id'])).toContain(need('taskId'));
    },
  },
  'task cancel': {
    output: { op: true, view: fieldOf('task') },
    run: async (t) => {
      // A settled task is left as it is.
      expect(await t.json(['task', 'cancel', need('taskId')], { sandbox: true })).toMatchObject({
        status: 'completed',
      });
      // Flow never finishes this one: pending when asked, it is cancelled at once; already running,
      // its worker stops it within the wait (indeterminate once past the submit).
      t.sim.scenario.setFailure(SANDBOX_EMAIL, 'stuck_generation', { times: 1 });
      try {
        const queued = await t.run(['image', 't2i', 'never made', '--no-wait', '--json'], { sandbox: true });
        const id = String((JSON.parse(queued.stdout) as { task_id: string }).task_id);
        const p = await t.json(['task', 'cancel', id], { sandbox: true });
        expect(['cancelled', 'indeterminate']).toContain(p['status']);
      } finally {
        t.sim.scenario.clearFailures();
      }
    },
  },
  'task resume': {
    output: OP,
    run: async (t) => {
      // A run that ended completed is answered as it ended: nothing is made (or paid) again.
      const p = await t.json(['task', 'resume', need('batchId')], { sandbox: true });
      expect(p).toMatchObject({ status: 'completed', task_id: need('batchId'), made: 0 });
      await t.problem(['task', 'resume', 'no-such-run'], { sandbox: true, code: 'reference-not-found' });
    },
  },
  'worker run': {
    output: { schema: S.workerReportPayload },
    run: async (t) => {
      // The worker --no-wait starts, run by hand: the queue is empty (or another worker drains it),
      // so it leaves at once with its report; its log is stderr.
      const p = await t.json(['worker', 'run', '--profile', 'sandbox', '--idle-seconds', '0'], { sandbox: true });
      expect(p).toMatchObject({ status: 'ok', profile: 'sandbox', ran: [] });
      await t.problem(['worker', 'run', '--profile', 'sandbox', '--idle-seconds', '-1'], {
        sandbox: true,
        code: 'usage',
      });
    },
  },
  run: {
    output: OP,
    run: async (t) => {
      const config = path.join(t.home, 'run.json');
      const out = path.join(t.home, 'run-out');
      fs.writeFileSync(config, JSON.stringify({ prompts: [{ text: 'a kite', output_filename: 'kite.jpg' }] }));
      const p = await t.json(['run', '--config', config, '--output-dir', out], { sandbox: true });
      expect(p).toMatchObject({ status: 'completed', items: [{ files: [path.join(out, 'kite.jpg')] }] });
      fs.writeFileSync(config, '{"prompts": []}');
      await t.problem(['run', '--config', config], { sandbox: true, code: 'bad-parameter' });
    },
  },
  'video t2v': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['video', 't2v', 'waves at dusk, slow pan'], { sandbox: true });
      completed(p);
      state.videoId = String(p['flow_media_id']);
    },
  },
  'video i2v': {
    output: OP,
    run: async (t) =>
      completed(
        await t.json(['video', 'i2v', 'the fox starts running', '--initial-frame', need('imageId')], { sandbox: true }),
      ),
  },
  'video r2v': {
    output: OP,
    run: async (t) =>
      completed(
        await t.json(['video', 'r2v', 'the fox dances', '--ref', need('imageId'), '--duration', '8'], {
          sandbox: true,
        }),
      ),
  },
  'video extend': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['video', 'extend', need('videoId'), 'the camera keeps moving'], { sandbox: true });
      completed(p);
      expect(p).toMatchObject({ task_type: 'extend' });
      // A media id that is not a video of the catalog: refused naming media_id, nothing opened.
      await t.problem(['video', 'extend', need('imageId'), 'go on'], { sandbox: true, code: 'bad-parameter' });
    },
  },
  'video chain': {
    output: OP,
    run: async (t) => {
      const story = path.join(t.home, 'story.jsonl');
      fs.writeFileSync(story, '{"prompt": "a kite rises"}\n{"prompt": "the kite dips"}\n');
      const plan = await t.json(['video', 'chain', story, '--dry-run'], { sandbox: true });
      expect(plan).toMatchObject({ status: 'planned', links: [{ mode: 't2v' }, { mode: 'i2v' }] });
      const p = await t.json(['video', 'chain', story, '-y', '--jitter', '0'], { sandbox: true });
      expect(p).toMatchObject({ status: 'completed', made: 2 });
      state.chainId = String(p['chain_id']);
    },
  },
  'video chain-status': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['video', 'chain-status', need('chainId')], { sandbox: true });
      expect(p).toMatchObject({ status: 'completed', chain_id: need('chainId') });
      await t.problem(['video', 'chain-status', 'ch-none'], { sandbox: true, code: 'reference-not-found' });
    },
  },
  'movie plan': {
    output: OP,
    run: async (t) => {
      const story = path.join(t.home, 'story.yaml');
      fs.writeFileSync(
        story,
        `title: Harbour\nscenes:\n  - media_id: ${need('videoId')}\n    extend: [the tide comes in]\n`,
      );
      const p = await t.json(['movie', 'plan', story], { sandbox: true });
      expect(p).toMatchObject({
        status: 'estimated',
        title: 'Harbour',
        steps: [{ mode: 'extend', status: 'planned' }],
      });
      const bad = path.join(t.home, 'bad.yaml');
      fs.writeFileSync(bad, 'scenes:\n  - prompt: a\n    start: previous\n');
      await t.problem(['movie', 'plan', bad], { sandbox: true, code: 'bad-parameter' });
    },
  },
  'movie run': {
    output: OP,
    run: async (t) => {
      const story = path.join(t.home, 'story.yaml');
      const out = path.join(t.home, 'harbour.mp4');
      const p = await t.json(['movie', 'run', story, '-y', '-o', out], { sandbox: true });
      expect(p).toMatchObject({
        status: 'completed',
        made: 1,
        output: { path: out },
        timeline: path.join(t.home, 'harbour.otio'),
      });
      state.movieId = String(p['movie_id']);
      // The movie file is there now: a second run is refused before anything is sent.
      await t.problem(['movie', 'run', story, '-y', '-o', out], { sandbox: true, code: 'invalid-output' });
    },
  },
  'movie status': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['movie', 'status', need('movieId')], { sandbox: true });
      expect(p).toMatchObject({ status: 'completed', movie_id: need('movieId') });
      await t.problem(['movie', 'status', 'no-such-movie'], { sandbox: true, code: 'reference-not-found' });
    },
  },
  'video upscale': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['video', 'upscale', need('videoId'), '--scale', '1080p'], { sandbox: true });
      expect(fs.existsSync(String(p['path']))).toBe(true);
      const copies = (await t.run(['data', 'list', 'videos', '--all-copies', '--json'], { sandbox: true })).stdout;
      expect(
        copies
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Record<string, unknown>),
      ).toContainEqual(expect.objectContaining({ media_id: need('videoId'), path: p['path'] }));
    },
  },
  'data sync': {
    output: OP,
    run: async (t) => {
      // Every run recorded its names and titles: a dry run of every project finds nothing to change.
      const p = await t.json(['data', 'sync', '--all', '--dry-run'], { sandbox: true });
      expect(p).toMatchObject({ status: 'ok', dry_run: true, named: 0, unnamed: 0 });
      expect((p['projects'] as unknown[]).length).toBeGreaterThan(0);
    },
  },
  'data download': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['data', 'download', need('videoId'), '--out', path.join(t.home, 'redownload')], {
        sandbox: true,
      });
      expect(p['path']).toBe(path.join(t.home, 'redownload', `${need('videoId')}.mp4`));
      // An image too (its grid tile's session-gated URL).
      const image = await t.json(['data', 'download', need('imageId'), '--out', path.join(t.home, 'redownload')], {
        sandbox: true,
      });
      expect(String(image['path'])).toMatch(new RegExp(`${need('imageId')}\\.(jpg|png|webp)$`));
      expect(fs.statSync(String(image['path'])).size).toBe(image['bytes']);
    },
  },
  'character list': {
    output: OP,
    run: async (t) => {
      // No character yet: one line on a terminal's text form, not a bare header.
      const none = await t.run(['character', 'list', '--project', need('projectId')], { sandbox: true });
      expect(none.stdout.trim(), none.stderr).toBe('No saved characters in this project yet.');
      t.sim.scenario.addCharacter(need('projectId'), { displayName: 'Mira', voice: 'kore' });
      const p = await t.json(['character', 'list', '--project', need('projectId')], { sandbox: true });
      expect(p['count']).toBe(1);
    },
  },
  'character show': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['character', 'show', '--project', need('projectId'), '--name', 'Mira'], {
        sandbox: true,
      });
      expect(p['character']).toMatchObject({ display_name: 'Mira' });
    },
  },
  // The brief of the test project starts empty. Each command drives the editor's brief panel and
  // answers the card set as Flow shows it after the write (checked against the simulator's state).
  'instructions add': {
    output: OP,
    run: async (t) => {
      const png = path.join(t.home, 'house-style.png');
      fs.writeFileSync(png, makePng(80, 60, 'house style'));
      const p = await t.json(
        instr('add', 'House style', '--text', 'Muted colours, 35mm', '--ref', png, '--ref', 'Mira'),
        { sandbox: true },
      );
      const stored = t.sim.scenario.briefOf(need('projectId')).cards;
      expect(stored).toHaveLength(1);
      expect(p['card']).toMatchObject({
        id: stored[0]?.id,
        title: 'House style',
        enabled: true,
        image_media_ids: stored[0]?.imageMediaIds,
        character_ids: stored[0]?.characterIds,
      });
      expect(stored[0]?.imageMediaIds).toHaveLength(1);
      expect(stored[0]?.characterIds).toHaveLength(1);
    },
  },
  'instructions disable': {
    output: OP,
    run: async (t) => {
      const id = t.sim.scenario.briefOf(need('projectId')).cards[0]?.id ?? '';
      const p = await t.json([...instr('disable'), '--id', id], { sandbox: true });
      expect(p['card']).toMatchObject({ id, enabled: false });
    },
  },
  'instructions enable': {
    output: OP,
    run: async (t) => {
      const p = await t.json(instr('enable', 'house STYLE'), { sandbox: true });
      expect(p['card']).toMatchObject({ title: 'House style', enabled: true });
      expect(t.sim.scenario.briefOf(need('projectId')).cards[0]?.enabled).toBe(true);
    },
  },
  'instructions rm': {
    output: OP,
    run: async (t) => {
      const p = await t.json(instr('rm', 'House style'), { sandbox: true });
      expect(p).toMatchObject({ card: { title: 'House style' }, cards: [] });
      expect(t.sim.scenario.briefOf(need('projectId')).cards).toEqual([]);
    },
  },
  'instructions toggle-mode': {
    output: OP,
    run: async (t) => {
      expect(await t.json(instr('toggle-mode', '--off'), { sandbox: true })).toMatchObject({
        agent_mode_enabled: false,
      });
      expect(await t.json(instr('toggle-mode', '--on'), { sandbox: true })).toMatchObject({
        agent_mode_enabled: true,
      });
    },
  },
  'instructions apply': {
    output: OP,
    run: async (t) => {
      const file = path.join(t.home, 'cards.json');
      fs.writeFileSync(
        file,
        JSON.stringify([
          { title: 'Palette', text: 'Teal and orange' },
          { title: 'Lens', text: '85mm', enabled: false },
        ]),
      );
      const p = await t.json(instr('apply', file), { sandbox: true });
      expect((p['cards'] as Array<{ title: string; enabled: boolean }>).map((c) => [c.title, c.enabled])).toEqual([
        ['Palette', true],
        ['Lens', false],
      ]);
    },
  },
  // Last: the list reads what apply left and a card seeded beside it.
  'instructions list': {
    output: OP,
    run: async (t) => {
      t.sim.scenario.addInstruction(need('projectId'), 'Golden hour light.');
      const p = await t.json(instr('list'), { sandbox: true });
      expect(p).toMatchObject({ project_id: need('projectId'), enabled: true });
      expect((p['cards'] as Array<{ title: string; text: string }>).map((c) => [c.title, c.text])).toEqual([
        ['Palette', 'Teal and orange'],
        ['Lens', '85mm'],
        ['Instruction 3', 'Golden hour light.'],
      ]);
    },
  },
  'project list': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['project', 'list'], { sandbox: true });
      expect((p['projects'] as Array<{ project_id: string }>).map((x) => x.project_id)).toContain(need('projectId'));
      expect(p).toEqual(await libraryRun(path.join(t.home, 'sandbox'), 'listProjects', {}));
    },
  },
  'project show': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['project', 'show', need('projectId')], { sandbox: true });
      expect(p['project']).toMatchObject({
        project_id: need('projectId'),
        title: 'Outputs test, renamed',
        profile: 'sandbox',
        url: expect.stringContaining(need('projectId')),
      });
    },
  },
  'data list projects': {
    output: { op: true, view: rowsOf('projects') },
    run: async (t) => void (await t.rows(['data', 'list', 'projects'], { sandbox: true })),
  },
  'data list images': {
    output: { op: true, view: rowsOf('items') },
    run: async (t) => {
      const rows = await t.rows(['data', 'list', 'images', '--limit', '100'], { sandbox: true });
      expect(rows.map((r) => r['media_id'])).toContain(need('imageId'));
    },
  },
  'data list videos': {
    output: { op: true, view: rowsOf('items') },
    run: async (t) => {
      const rows = await t.rows(['data', 'list', 'videos'], { sandbox: true });
      expect(rows.map((r) => r['media_id'])).toContain(need('videoId'));
    },
  },
  'data list profiles': {
    output: { op: true, view: rowsOf('items') },
    run: async (t) => void (await t.rows(['data', 'list', 'profiles'], { sandbox: true })),
  },
  'data media': {
    output: { op: true, view: fieldOf('media') },
    run: async (t) => {
      const p = await t.json(['data', 'media', need('imageId')], { sandbox: true });
      expect(p).toMatchObject({ media_id: need('imageId'), kind: 'image', profile: 'sandbox' });
    },
  },
  'data usage': {
    output: OP,
    run: async (t) => {
      const p = await t.json(['data', 'usage', '--weeks', '2'], { sandbox: true });
      expect(p['weeks']).toBe(2);
      expect((p['credits'] as { total: { quoted: number } }).total.quoted).toBeGreaterThan(0);
    },
  },
  'credits usage': {
    output: OP,
    run: async (t) => {
      // The videos above were quoted before their clicks (the sandbox's cost table: Veo Lite 8 s = 10).
      const p = await t.json(['credits', 'usage', '--days', '2', '--profile', 'sandbox'], { sandbox: true });
      expect(p).toMatchObject({ status: 'ok', days: 2, profile: 'sandbox' });
      const today = p['today'] as { quoted: number; remaining: number | null };
      expect(today.quoted).toBeGreaterThanOrEqual(10);
      expect(today.remaining).toBeNull();
    },
  },
};

/** Refused by the sandbox's Flow or by the model catalog, after the session is up (one at a time: they take the profile's lease). */
export const SANDBOX_FAILURES: readonly FailureCase[] = [
  { args: () => ['credits', 'user', '--profile', 'ghost'], sandbox: true, exit: 2, code: 'no-profile' },
  {
    args: () => ['video', 't2v', 'waves', '--model', 'veo-fast', '--duration', '10'],
    sandbox: true,
    exit: 2,
    code: 'bad-parameter',
  },
  {
    name: 'image upscale MEDIA_ID --scale 4k',
    args: () => ['image', 'upscale', need('imageId'), '--scale', '4k'],
    sandbox: true,
    exit: 22,
    code: 'upscale-unavailable',
  },
  {
    name: 'character show --project PROJECT --name Nobody',
    args: () => ['character', 'show', '--project', need('projectId'), '--name', 'Nobody'],
    sandbox: true,
    exit: 32,
    code: 'reference-not-found',
  },
];
