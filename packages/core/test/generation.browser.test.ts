import fs from 'node:fs';
import { exitCodeOf } from '@gflow/errors';
import { readImageSize } from '@gflow/flow-sim';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Gflow } from '../src/runtime/gflow.js';
import { signInProfile, useHarness } from './simHarness.js';

const EMAIL = 'alice@example.com';
const h = useHarness();
let gflow: Gflow;

beforeAll(async () => {
  h.sim.scenario.createAccount({ email: EMAIL, credits: 500, uploadTermsAccepted: true });
  gflow = h.gflow('library');
  await signInProfile(gflow, h.sim, 'alice', EMAIL);
}, 120_000);

interface Completed {
  status: string;
  task_id: string;
  flow_project_id: string;
  flow_media_id: string;
  files: string[];
  error?: { type: string; retryable: boolean; detail: string };
}

describe('the generation path against the simulator', () => {
  let imageMediaId = '';
  let projectId = '';

  it('generates two 3:4 images, downloads them atomically and records them', async () => {
    h.sim.received.clear();
    const result = (await gflow.run('generateImage', {
      prompt: 'a lighthouse at dusk',
      aspect: '3:4',
      count: 2,
      profile: 'alice',
    })) as Completed;
    expect(result.status, JSON.stringify(result.error)).toBe('completed');
    expect(result.files).toHaveLength(2);
    for (const file of result.files) {
      const size = readImageSize(fs.readFileSync(file));
      expect(size).not.toBeNull();
      expect(Math.abs(size!.width / size!.height - 3 / 4)).toBeLessThan(0.02);
      expect(file.startsWith(h.outputDir)).toBe(true);
    }
    expect(h.sim.received.calls('ogiZ0b')).toHaveLength(1);
    imageMediaId = result.flow_media_id;
    projectId = result.flow_project_id;
    const asset = gflow.catalog.assets.getByMediaId('alice', imageMediaId);
    expect(asset).toMatchObject({ kind: 'image', flowProjectId: projectId });
    const files = gflow.catalog.localFiles.listForAsset(asset!.id);
    expect(files[0]).toMatchObject({ path: result.files[0], bytes: fs.statSync(result.files[0]!).size });
    expect((await gflow.tasks.get(result.task_id))?.status).toBe('completed');
  }, 120_000);

  it('chains image → video from the image media id (i2v)', async () => {
    const result = (await gflow.run('generateVideo', {
      prompt: 'the light turns',
      mode: 'i2v',
      initial_frame: imageMediaId,
      aspect: '16:9',
      profile: 'alice',
    })) as Completed;
    expect(result.status, JSON.stringify(result.error)).toBe('completed');
    expect(result.flow_project_id).toBe(projectId);
    const bytes = fs.readFileSync(result.files[0]!);
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    const submits = h.sim.received.submits();
    expect(submits.at(-1)?.rpcId).toBe('eb1hJf');
  }, 180_000);

  it('reports a content-policy refusal as a failed task with the typed problem', async () => {
    h.sim.scenario.setFailure(EMAIL, 'content_policy', { times: 1 });
    const result = (await gflow.run('generateImage', {
      prompt: 'something refused',
      profile: 'alice',
      project: projectId,
    })) as Completed;
    expect(result.status).toBe('failed');
    expect(result.error?.type).toBe('https://gflow.dev/errors/content-policy');
    expect(result.error?.retryable).toBe(false);
    const failed = gflow.catalog.errors.list({ profile: 'alice' });
    expect(failed.items[0]).toMatchObject({ errorType: 'content-policy' });
  }, 120_000);

  it('refuses before any browser work when the request is invalid (nothing submitted)', async () => {
    h.sim.received.clear();
    let caught: unknown;
    try {
      await gflow.run('generateVideo', {
        prompt: 'x',
        mode: 'r2v',
        reference_images: ['/nope.png'],
        duration: 6,
        profile: 'alice',
      });
    } catch (error) {
      caught = error;
    }
    expect(exitCodeOf(caught)).toBe(2); // an argument Flow cannot honour is a bad parameter, not a setting
    expect(h.sim.received.calls()).toHaveLength(0);
  });

  it('attaches a saved character to r2v (reference_entities + names) and records its entity id', async () => {
    const { entityId } = h.sim.scenario.addCharacter(projectId, { displayName: 'Captain Ro' });
    const result = (await gflow.run('generateVideo', {
      prompt: 'the captain salutes',
      mode: 'r2v',
      model: 'veo_lite',
      aspect: '16:9',
      reference_entities: [entityId],
      reference_entity_names: ['Captain Ro'],
      project: projectId,
      profile: 'alice',
    })) as Completed;
    expect(result.status, JSON.stringify(result.error)).toBe('completed');
    const submit = h.sim.received.submits().at(-1);
    expect(submit?.rpcId).toBe('MZZa6b');
    expect(submit?.inner).toContain(entityId);
    const operationId = gflow.catalog.tasks.get(result.task_id)?.checkpoint?.['operation_id'];
    const operation = gflow.catalog.operations.get(Number(operationId));
    expect(operation?.status).toBe('succeeded');
    expect(JSON.parse(operation?.metadataJson ?? '{}')).toMatchObject({ entity_ids: [entityId] });
  }, 180_000);

  it('a lost submit reply on a one-clip t2v (seed 000 #1141): completed, recovered: true, downloaded and catalogued', async () => {
    h.sim.scenario.setFailure(EMAIL, 'unreadable_submit_reply', { times: 1 });
    const prompt = `a lost reply, found again ${Date.now()}`;
    const result = (await gflow.run('generateVideo', {
      prompt,
      mode: 't2v',
      aspect: '16:9',
      profile: 'alice',
    })) as Completed & { recovered?: boolean };
    expect(result.status, JSON.stringify(result.error)).toBe('completed');
    expect(result.recovered).toBe(true);
    expect(fs.readFileSync(result.files[0]!).subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(gflow.catalog.assets.getByMediaId('alice', result.flow_media_id)).toMatchObject({ kind: 'video' });
    expect((await gflow.tasks.get(result.task_id))?.status).toBe('completed');
  }, 120_000);

  it('runs wait=false in the background and answers tasks.get', async () => {
    const pending = (await gflow.run('generateImage', {
      prompt: 'background job',
      profile: 'alice',
      project: projectId,
      wait: false,
    })) as Completed;
    expect(pending.status).toBe('pending');
    const deadline = Date.now() + 90_000;
    let status = (await gflow.tasks.get(pending.task_id))?.status;
    while (status !== 'completed' && status !== 'failed' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      status = (await gflow.tasks.get(pending.task_id))?.status;
    }
    expect(status).toBe('completed');
    expect((await gflow.tasks.get(pending.task_id))?.result?.files).toHaveLength(1);
  }, 120_000);
});

describe('uploading an image', () => {
  it('uploads a local image into a project and catalogues it under its run-unique name', async () => {
    const generated = (await gflow.run('generateImage', {
      prompt: 'source for upload',
      profile: 'alice',
    })) as Completed;
    expect(generated.status).toBe('completed');
    h.sim.received.clear();
    const result = (await gflow.run('uploadImage', {
      path: String(generated.files[0]),
      profile: 'alice',
      project: generated.flow_project_id,
    })) as unknown as { media_id: string; project_id: string; display_name: string };
    expect(result.project_id).toBe(generated.flow_project_id);
    expect(h.sim.received.calls('maseQ')).toHaveLength(1);
    expect(result.display_name).toMatch(/-[0-9a-f]{8}\.jpg$/);
    expect(gflow.catalog.assets.getByMediaId('alice', result.media_id)).toMatchObject({
      kind: 'image',
      flowProjectId: generated.flow_project_id,
    });
  }, 120_000);
});
