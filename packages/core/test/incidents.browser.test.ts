import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GflowError } from '@gflow/errors';
import { resolveProfile } from '../src/home/profiles.js';
import type { Gflow } from '../src/runtime/gflow.js';
import { signInProfile, useHarness } from './simHarness.js';

const EMAIL = 'incidents@example.com';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const h = useHarness();
let gflow: Gflow;
let cookieValues: string[] = [];

interface Failed {
  status: string;
  task_id: string;
  error?: { type: string; incident?: { id: string; capture_status: string } };
}

beforeAll(async () => {
  h.sim.scenario.createAccount({ email: EMAIL, credits: 500, uploadTermsAccepted: true });
  gflow = h.gflow('library');
  await signInProfile(gflow, h.sim, 'inc', EMAIL);
  const profile = resolveProfile(gflow.layout, { requested: 'inc' });
  const cookies = await gflow.sessions.withSession(profile, { signal: new AbortController().signal }, (session) =>
    session.context.cookies(),
  );
  cookieValues = cookies.map((c) => c.value).filter((v) => v.length >= 8);
}, 120_000);

function bundles(): string[] {
  const root = path.join(h.home, 'incidents');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root)
    .flatMap((day) => fs.readdirSync(path.join(root, day)).map((name) => path.join(root, day, name)));
}

function bundleOf(id: string): string {
  const hits = bundles().filter((dir) => path.basename(dir).includes(`-${id}-`));
  expect(hits).toHaveLength(1);
  return hits[0]!;
}

function expectPrivateAndClean(dir: string): string {
  const files = ['manifest.json', 'ui.json', 'network.json', 'sensitive/screenshot.png'];
  for (const d of [dir, path.join(dir, 'sensitive'), path.dirname(dir)])
    expect(fs.statSync(d).mode & 0o777).toBe(0o700);
  for (const f of files) expect(fs.statSync(path.join(dir, f)).mode & 0o777).toBe(0o600);
  const text = files
    .slice(0, 3)
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
    .join('\n');
  expect(cookieValues.length).toBeGreaterThan(0);
  for (const secret of ['Signature=', 'ya29.', 'SAPISID=', '__Secure-', h.home, ...cookieValues])
    expect(text).not.toContain(secret);
  expect(fs.readFileSync(path.join(dir, 'sensitive/screenshot.png')).subarray(0, 8).equals(PNG)).toBe(true);
  return text;
}

describe('incident bundles', () => {
  it('a refused submit writes a private, redacted bundle of the failed page; the envelope names only its id', async () => {
    h.sim.scenario.setFailure(EMAIL, 'unusual_activity', { times: 1 });
    const result = (await gflow.run('generateImage', { prompt: 'a harbour at night', profile: 'inc' })) as Failed;
    expect(result.status).toBe('failed');
    const incident = result.error?.incident;
    expect(incident).toEqual({ id: expect.stringMatching(/^[0-9a-f]{16}$/), capture_status: 'captured' });
    expect(JSON.stringify(result.error)).not.toContain(h.home);
    expect((await gflow.tasks.get(result.task_id))?.error).toMatchObject({ incident });

    const dir = bundleOf(incident!.id);
    expectPrivateAndClean(dir);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      incident_id: incident!.id,
      operation: 'gflow_generate_image',
      task_id: result.task_id,
      capture_status: 'captured',
      captured_at_failure: true,
      may_have_spent: true,
    });
    expect(manifest['error']).toMatchObject({ code: 'waf-rejection', exit_code: 10 });
    expect(String(manifest['url'])).toMatch(/^https:\/\/flow\.google\.com\/project\//);
    // Not about:blank: the page the operation used, with Flow's anchors on it.
    const ui = JSON.parse(fs.readFileSync(path.join(dir, 'ui.json'), 'utf8')) as {
      counts: Record<string, number>;
      url: string;
    };
    expect(ui.counts['aisandbox-root']).toBeGreaterThan(0);
    expect(ui.counts['flow-prompt-box']).toBeGreaterThan(0);
    const network = JSON.parse(fs.readFileSync(path.join(dir, 'network.json'), 'utf8')) as {
      entries: Array<{ rpcIds: string[]; status: number }>;
    };
    expect(network.entries.find((e) => e.rpcIds.includes('ogiZ0b'))).toMatchObject({ status: 200 });
    expect(fs.statSync(path.join(dir, 'sensitive/screenshot.png')).size).toBeGreaterThan(2_000);
  }, 120_000);

  it('a download that fails after the generation photographs the live page; signed URLs are stripped', async () => {
    h.sim.scenario.setFailure(EMAIL, 'dropped_download', { times: 10 });
    const result = (await gflow.run('generateImage', { prompt: 'a lighthouse', profile: 'inc' })) as Failed;
    h.sim.scenario.clearFailures();
    expect(result.status).toBe('failed');
    expect(result.error?.incident?.capture_status).toBe('captured');
    const dir = bundleOf(result.error!.incident!.id);
    const text = expectPrivateAndClean(dir);
    expect(text).toContain('<redacted:signed-url>');
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ captured_at_failure: false, phase: 'done' });
  }, 120_000);

  it('a failure raised by core before the driver ran is refused before queueing: no task, no bundle', async () => {
    const before = bundles().length;
    const error = await gflow
      .run('generateVideo', {
        prompt: 'x',
        mode: 'i2v',
        initial_frame: '0b7e5c1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e',
        profile: 'inc',
      })
      .then(
        () => undefined,
        (e: unknown) => e as GflowError,
      );
    expect(error?.code).toBe('reference-not-found');
    expect(error?.extensions['parameter']).toBe('initial_frame');
    expect(error?.incident).toBeUndefined();
    expect(bundles()).toHaveLength(before);
  }, 120_000);

  it('an instruction write that Flow stores otherwise (exit 7) is photographed on the editor page it drove', async () => {
    const projectId = h.sim.scenario.createProject(EMAIL, { title: 'Briefed' }).id;
    h.sim.scenario.setFailure(EMAIL, 'brief_save_lossy', { times: 1 });
    const error = await gflow
      .run('instructionsAdd', { project: projectId, title: 'Cast', text: 'Mira leads.', profile: 'inc' })
      .then(
        () => undefined,
        (e: unknown) => e as GflowError,
      );
    expect(error?.code).toBe('wire-format');
    expect(error?.incident).toEqual({ id: expect.stringMatching(/^[0-9a-f]{16}$/), capture_status: 'captured' });
    const dir = bundleOf(error!.incident!.id);
    expectPrivateAndClean(dir);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      operation: 'gflow_instructions_add',
      captured_at_failure: true,
      may_have_spent: false,
    });
    expect(manifest['error']).toMatchObject({ code: 'wire-format', exit_code: 7 });
    expect(String(manifest['url'])).toContain(`/project/${projectId}`);
    const network = JSON.parse(fs.readFileSync(path.join(dir, 'network.json'), 'utf8')) as {
      entries: Array<{ rpcIds: string[]; status: number }>;
    };
    // The page's own save went out and was answered (what it stored is the difference).
    expect(network.entries.find((e) => e.rpcIds.includes('simBrief'))).toMatchObject({ status: 200 });
  }, 120_000);

  it('a refusal the driver raises on the editor page (an ambiguous title, 11) is bundled like its other failures', async () => {
    const projectId = h.sim.scenario.createProject(EMAIL, { title: 'Twins' }).id;
    h.sim.scenario.addInstructionCard(projectId, { title: 'Twin', text: 'a' });
    h.sim.scenario.addInstructionCard(projectId, { title: 'twin', text: 'b' });
    const before = bundles().length;
    const error = await gflow.run('instructionsRm', { project: projectId, title: 'TWIN', profile: 'inc' }).then(
      () => undefined,
      (e: unknown) => e as GflowError,
    );
    expect(error?.code).toBe('configuration');
    expect(error?.incident?.capture_status).toBe('captured');
    expect(bundles()).toHaveLength(before + 1);
  }, 120_000);

  it('a credit read that fails on a live page (exit 31) leaves a bundle with report.md and browser.json', async () => {
    h.sim.scenario.setFailure(EMAIL, 'identity_recheck');
    try {
      const error = await gflow.run('getCredits', { profile: 'inc' }).then(
        () => undefined,
        (e: unknown) => e as GflowError,
      );
      expect(error?.exitCode).toBe(31);
      expect(error?.incident?.capture_status).toBe('captured');
      const dir = bundleOf(error!.incident!.id);
      expectPrivateAndClean(dir);
      const report = fs.readFileSync(path.join(dir, 'report.md'), 'utf8');
      expect(report).toContain('**Operation:** gflow_get_credits (reading the credit balance)');
      expect(report).toContain('exit 31');
      expect(report).toMatch(/\*\*URL:\*\* https:\/\/flow\.google\.com\//);
      expect(fs.statSync(path.join(dir, 'report.md')).mode & 0o777).toBe(0o600);
      const browser = JSON.parse(fs.readFileSync(path.join(dir, 'browser.json'), 'utf8')) as Record<string, unknown>;
      expect(browser).toMatchObject({ headless: expect.any(Boolean), args: expect.any(Array) });
      for (const secret of [h.home, ...cookieValues]) expect(report + JSON.stringify(browser)).not.toContain(secret);
    } finally {
      h.sim.scenario.clearFailures();
    }
  }, 120_000);

  it('project creation, an image upscale and a download by id that fail on their page each leave a bundle', async () => {
    const made = (await gflow.run('generateImage', { prompt: 'a quay in fog', profile: 'inc' })) as {
      status: string;
      flow_media_id: string;
    };
    expect(made.status).toBe('completed');
    const outDir = fs.mkdtempSync(path.join(h.home, 'again-'));
    const cases: Array<{ label: string; arm: () => void; run: () => Promise<unknown>; what: string }> = [
      {
        label: 'project creation',
        arm: () => h.sim.scenario.setFailure(EMAIL, 'http_5xx', { rpcIds: ['jHPbke'], times: 1 }),
        run: () => gflow.run('projectsCreate', { title: 'Never made', profile: 'inc' }),
        what: 'creating a project',
      },
      {
        label: 'image upscale',
        arm: () => h.sim.scenario.setFailure(EMAIL, 'http_5xx', { rpcIds: ['SPrCad'], times: 1 }),
        run: () => gflow.run('upscaleImage', { media_id: made.flow_media_id, scale: '2k', profile: 'inc' }),
        what: `upscaling image ${made.flow_media_id} to 2K`,
      },
      {
        label: 'download by id',
        arm: () => h.sim.scenario.setFailure(EMAIL, 'dropped_download', { times: 10 }),
        run: () => gflow.run('downloadMedia', { media_id: made.flow_media_id, out_dir: outDir, profile: 'inc' }),
        what: `finding image ${made.flow_media_id} in its project`,
      },
    ];
    for (const c of cases) {
      c.arm();
      try {
        const error = await c.run().then(
          () => undefined,
          (e: unknown) => e as GflowError,
        );
        expect(error, c.label).toBeDefined();
        expect(error?.incident?.capture_status, c.label).toBe('captured');
        const dir = bundleOf(error!.incident!.id);
        expectPrivateAndClean(dir);
        const report = fs.readFileSync(path.join(dir, 'report.md'), 'utf8');
        expect(report, c.label).toContain(`(${c.what})`);
        expect(report, c.label).toMatch(/\*\*URL:\*\* https:\/\/flow\.google\.com\//);
      } finally {
        h.sim.scenario.clearFailures();
      }
    }
    expect(fs.readdirSync(outDir)).toEqual([]);
  }, 240_000);

  it('GFLOW_CLI_INCIDENT_CAPTURE=false writes nothing and says disabled', async () => {
    const off = h.gflow('library', { GFLOW_CLI_INCIDENT_CAPTURE: 'false' });
    const before = bundles().length;
    h.sim.scenario.setFailure(EMAIL, 'unusual_activity', { times: 1 });
    const result = (await off.run('generateImage', { prompt: 'a harbour at dawn', profile: 'inc' })) as Failed;
    expect(result.status).toBe('failed');
    expect(result.error?.incident?.capture_status).toBe('disabled');
    expect(bundles()).toHaveLength(before);
    await off.close();
  }, 120_000);
});
