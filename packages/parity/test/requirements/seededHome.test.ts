import { expect } from 'vitest';
import { codeOf } from '../../src/drivers/outcome.js';
import { expectFailure, expectOk } from '../../src/expectOutcome.js';
import { useSurfaces } from '../../src/harness.js';
import { seedProjects, seedVideo } from '../../src/seedHome.js';
import { verifies } from '../../src/verifies.js';

// A home with a seeded catalog (five projects, one video) and no profile
// directory: a generation that passed every check would stop at profile
// resolution (no-profile), so none of these calls can reach a browser.
useSurfaces({
  name: 'seeded',
  seed: async (where) => {
    await seedProjects(where, 'alice', 5);
    await seedVideo(where, 'alice', SEEDED_VIDEO, 'proj-1');
  },
});

/** A catalogued clip: a Flow media id (a UUID), as every surface requires one. */
const SEEDED_VIDEO = '7d1e5c2a-4b3f-4e8a-9c6d-1f2e3a4b5c6d';
const PROMPT = 'a red fox in fresh snow';

verifies('errors.problem-details-envelope', async (s) => {
  const problem = expectFailure(await s.call('generateImage', { prompt: PROMPT, count: 9 }), { code: 'bad-parameter' });
  expect(problem.type).toMatch(/^https:\/\/[^/]+\/errors\/bad-parameter$/);
  expect(problem).toMatchObject({ title: 'Bad Parameter', status: 400, retryable: false });
  expect(problem.detail).toMatch(/count/);
  expect(problem.instance).toMatch(/^gflow:error:[\w-]+$/);
  expect(problem.message).toMatch(/^\[BadParameterError\] .+ \(Remediation: .+\)$/);
});

verifies('errors.bad-parameter', async (s) => {
  expectFailure(await s.call('generateImage', { prompt: PROMPT, count: 9 }), {
    code: 'bad-parameter',
    status: 400,
    exit: 2,
    retryable: false,
  });
  expectFailure(await s.call('listProjects', { offset: -1 }), { code: 'bad-parameter', status: 400, exit: 2 });
});

verifies('profile.plain-name', async (s) => {
  for (const profile of ['../outside', '/etc/gflow']) {
    expectFailure(await s.call('listProjects', { profile }), {
      code: 'security',
      status: 403,
      exit: 13,
      retryable: false,
    });
  }
  expectFailure(await s.call('generateImage', { prompt: PROMPT, profile: '../outside' }), {
    code: 'security',
    status: 403,
    exit: 13,
  });
});

verifies('output.mcp-confined', async (s) => {
  expectFailure(await s.call('generateImage', { prompt: PROMPT, output: '../escape.png' }), {
    code: 'invalid-output',
    status: 400,
  });
  expectFailure(await s.call('generateVideo', { prompt: PROMPT, output: '/tmp/gflow-parity-elsewhere.mp4' }), {
    code: 'invalid-output',
    status: 400,
  });
  const problem = expectFailure(await s.call('downloadMedia', { media_id: SEEDED_VIDEO, out_dir: '../escape' }), {
    code: 'invalid-output',
    status: 400,
  });
  expect(problem['parameter']).toBe('out_dir');
});

verifies('output.directory-refused', async (s) => {
  for (const operation of ['generateImage', 'generateVideo']) {
    const problem = expectFailure(await s.call(operation, { prompt: PROMPT, output: s.outputDir }), {
      code: 'invalid-output',
      status: 400,
      exit: 2,
    });
    expect(problem.detail).toMatch(/directory/);
  }
});

verifies('projects.pagination', async (s) => {
  const seen: unknown[] = [];
  let offset: number | null = 0;
  const pages: Array<Record<string, unknown>> = [];
  while (offset !== null && pages.length < 5) {
    const page = expectOk(await s.call('listProjects', { limit: 2, offset }));
    pages.push(page);
    seen.push(...(page['projects'] as Array<{ project_id: string }>).map((p) => p.project_id));
    offset = page['next_offset'] as number | null;
  }
  expect(pages.map((p) => [p['offset'], p['count'], p['has_more'], p['next_offset']])).toEqual([
    [0, 2, true, 2],
    [2, 2, true, 4],
    [4, 1, false, null],
  ]);
  expect(seen).toEqual(['proj-5', 'proj-4', 'proj-3', 'proj-2', 'proj-1']);
});

verifies('voices.static', async (s) => {
  const result = expectOk(await s.call('characterVoices', {}));
  const voices = result['voices'] as Array<Record<string, unknown>>;
  expect(voices.length).toBeGreaterThan(0);
  expect(result['count']).toBe(voices.length);
  for (const voice of voices) {
    expect(voice).toEqual({
      name: expect.any(String),
      description: expect.any(String),
      sample_url: voice['sample_url'] === null ? null : expect.any(String),
    });
  }
  expect(new Set(voices.map((v) => v['name'])).size).toBe(voices.length);
});

interface ModelEntry {
  readonly name: string;
  readonly aliases: readonly string[];
  /** Image models: false when flow.google.com does not offer it (refused there before anything runs). */
  readonly on_flow_host?: boolean;
}

verifies('models.catalog', async (s) => {
  const result = expectOk(await s.call('listModels', {}));
  const image = result['image'] as { aspects: string[]; models: Array<Record<string, unknown>> };
  const video = result['video'] as { aspects: string[]; tiers: string[]; models: Array<Record<string, unknown>> };
  expect(image.aspects).toEqual(expect.arrayContaining(['9:16', '16:9', '1:1', '4:3', '3:4']));
  expect(video.aspects).toEqual(expect.arrayContaining(['9:16', '16:9']));
  expect(video.tiers.length).toBeGreaterThan(0);
  for (const m of image.models)
    expect(m).toMatchObject({
      name: expect.any(String),
      label: expect.any(String),
      aliases: expect.any(Array),
      ref_cap: expect.any(Number),
      default: expect.any(Boolean),
    });
  expect(image.models.filter((m) => m['default'] === true)).toHaveLength(1);
  for (const m of video.models)
    expect(m).toMatchObject({
      name: expect.any(String),
      label: expect.any(String),
      aliases: expect.any(Array),
      ref_cap: expect.any(Number),
      max_duration: expect.any(Number),
    });
});

// An accepted alias gets past model validation and is then refused for its
// output (a directory), which is checked next and before anything runs; a
// model flow.google.com does not offer is refused for the host instead. A
// rejected alias would be a bad-parameter naming the model (the control).
verifies('models.aliases-accepted', async (s) => {
  const result = expectOk(await s.call('listModels', {}));
  const groups: Array<[string, ModelEntry[]]> = [
    ['generateImage', (result['image'] as { models: ModelEntry[] }).models],
    ['generateVideo', (result['video'] as { models: ModelEntry[] }).models],
  ];
  for (const [operation, models] of groups) {
    const control = expectFailure(
      await s.call(operation, { prompt: PROMPT, model: 'no-such-model', output: s.outputDir }),
      { code: 'bad-parameter' },
    );
    expect(control['parameter']).toBe('model');
    for (const model of models) {
      expect(model.aliases.length).toBeGreaterThan(0);
      // One spawn per call on the CLI: its least canonical alias stands for the rest.
      const aliases = s.costly ? model.aliases.slice(-1) : model.aliases;
      const expected = model.on_flow_host === false ? 'flow-host-migrated' : 'invalid-output';
      for (const alias of aliases) {
        const outcome = await s.call(operation, { prompt: PROMPT, model: alias, output: s.outputDir });
        const code = outcome.ok ? 'ok' : codeOf(outcome.problem);
        expect({ model: model.name, alias, code }).toEqual({ model: model.name, alias, code: expected });
      }
    }
  }
});

verifies('tools.listed-and-accepted', async (s) => {
  const tools = expectOk(await s.call('listTools', {}))['tools'] as Array<Record<string, unknown>>;
  expect(tools.length).toBeGreaterThan(0);
  for (const tool of tools)
    expect(tool).toMatchObject({
      name: expect.any(String),
      title: expect.any(String),
      description: expect.any(String),
      category: expect.any(String),
    });
  for (const tool of s.costly ? tools.slice(0, 1) : tools) {
    expectFailure(
      await s.call('generateImage', { prompt: PROMPT, tools: [{ name: tool['name'] }], output: s.outputDir }),
      { code: 'invalid-output' },
    );
  }
});

verifies('tools.unknown-invalid-tools', async (s) => {
  const outcome = await s.call('generateImage', { prompt: PROMPT, tools: [{ name: 'no-such-tool' }] });
  if (outcome.ok) throw new Error('an unknown prompt tool was accepted');
  expect(outcome.status).toBe('invalid_tools');
  const error = (outcome.reply as { error?: unknown }).error;
  // The seed's shape (error: str) where the operation's result is the reply; the CLI's --json keeps
  // its one failure shape, whose error is the problem document (a bad parameter, exit 2).
  if (s.surface === 'cli') {
    expect(error).toMatchObject({ type: expect.stringMatching(/bad-parameter$/), parameter: 'tools' });
    expect(outcome.exitCode).toBe(2);
    expect(String((error as { detail?: unknown }).detail)).toContain('no-such-tool');
  } else expect(error).toEqual(expect.stringContaining('no-such-tool'));
});

verifies('usage-stats.report', async (s) => {
  const result = expectOk(await s.call('usageStats', {}));
  expect(result['weeks']).toBe(12);
  expect(result['telemetry']).toMatchObject({
    state: expect.any(String),
    upload: { enabled: expect.any(Boolean), reason: expect.any(String) },
  });
  expect(result['telemetry']).toHaveProperty('switch');
  expect(result).toMatchObject({
    invocations: { total: expect.any(Number) },
    generations: { total: expect.any(Number) },
  });
  expect(expectOk(await s.call('usageStats', { weeks: 53 }))['weeks']).toBe(53);
  expectFailure(await s.call('usageStats', { weeks: 54 }), { code: 'bad-parameter', status: 400, exit: 2 });
});

verifies('usage-stats.counts-tool-calls', async (s) => {
  expectOk(await s.call('listModels', {}));
  const result = expectOk(await s.call('usageStats', {}));
  const byCommand = (result['invocations'] as { byCommand: Array<{ command: string; count: number }> }).byCommand;
  expect(byCommand.find((c) => c.command === 'gflow_list_models')?.count ?? 0).toBeGreaterThan(0);
});

verifies('video.agentic-rejected', async (s) => {
  const problem = expectFailure(await s.call('generateVideo', { prompt: PROMPT, ui_mode: 'Agentic' }), {
    code: 'bad-parameter',
    status: 400,
    exit: 2,
  });
  expect(problem.detail).toMatch(/agentic/);
});

verifies('image.instructions-classic-conflict', async (s) => {
  const problem = expectFailure(
    await s.call('generateImage', { prompt: PROMPT, instructions: ['keep it moody'], ui_mode: 'classic' }),
    { code: 'bad-parameter', status: 400, exit: 2 },
  );
  expect(problem['parameter']).toBe('ui_mode');
});

verifies('characters.unpaired-entity', async (s) => {
  expectFailure(await s.call('generateImage', { prompt: PROMPT, reference_entities: ['char-1'] }), {
    code: 'flow-host-migrated',
    status: 501,
    exit: 36,
    retryable: false,
  });
});

verifies('check-flow.refused-before-the-browser', async (s) => {
  expectFailure(await s.call('checkFlow', { profile: '../outside' }), { code: 'security', status: 403, exit: 13 });
  const none = await s.call('checkFlow', {});
  expect(none.ok).toBe(false);
  if (!none.ok) expect(['no-profile', 'no-default-profile']).toContain(codeOf(none.problem));
});
