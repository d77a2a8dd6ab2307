import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makePng } from '@gflow/flow-sim';
import { isRetryable } from '@gflow/errors';
import { useRig } from './helpers/simSession.js';

const rig = useRig('driver-failures');
const email = 'failures@example.com';
let projectId: string;

const SUBMITS = ['ogiZ0b', 'YhhmEf', 'eb1hJf', 'nprQif', 'MZZa6b'];
const submitCount = (): number => SUBMITS.reduce((n, id) => n + rig.sim.received.calls(id).length, 0);

beforeAll(async () => {
  rig.sim.scenario.createAccount({ email, credits: 5000, uploadTermsAccepted: true });
  projectId = rig.sim.scenario.createProject(email).id;
  await rig.signIn(email);
}, 60_000);

afterEach(() => {
  rig.sim.scenario.clearFailures();
  rig.sim.scenario.setCredits(email, 5000);
});

const image = { prompt: 'a quiet harbour', model: 'nano-pro', aspect: '1:1', count: 1 } as const;
const t2v = {
  mode: 't2v',
  prompt: 'a quiet harbour',
  model: 'veo_3_1_lite',
  duration: 8,
  aspect: '16:9',
  count: 1,
  timeoutMs: 60_000,
} as const;

describe('a submit body that is not the job asked for is stopped before it reaches Flow (issue 28)', () => {
  const blocked = {
    exitCode: 7,
    code: 'wire-format',
    extensions: expect.objectContaining({ may_have_spent: false, submit_blocked: true }),
  };

  it('video: the page drops the bound start frame and sends t2v → aborted in the browser, nothing received, exit 7', async () => {
    const start = path.join(rig.profileDir, 'start-frame.png');
    await writeFile(start, makePng(640, 360, 'start-frame'));
    rig.sim.scenario.setFailure(email, 'wrong_submit_body');
    const before = submitCount();
    const error = await rig.session
      .generateVideo({ ...t2v, mode: 'i2v', startFrame: { path: start }, projectId })
      .catch((e: unknown) => e);
    expect(error).toMatchObject(blocked);
    expect(isRetryable(error)).toBe(false);
    expect((error as Error).message).toMatch(/is a t2v key.*nothing reached Flow/s);
    expect(submitCount()).toBe(before);
  });

  it('image: the page sends another model token → aborted in the browser, nothing received, exit 7', async () => {
    rig.sim.scenario.setFailure(email, 'wrong_submit_body');
    const before = submitCount();
    const error = await rig.session.generateImage({ ...image, projectId }).catch((e: unknown) => e);
    expect(error).toMatchObject(blocked);
    expect((error as Error).message).toContain('does not carry the model token GEM_PIX_2');
    expect(submitCount()).toBe(before);
  });

  it('a body that matches passes the guard untouched (the same switch off, the same job)', async () => {
    const before = submitCount();
    const result = await rig.session.generateImage({ ...image, projectId });
    expect(result.items).toHaveLength(1);
    expect(submitCount()).toBe(before + 1);
  });
});

describe('failures the driver must name', () => {
  it('credits warning in place of submit → InsufficientCreditsError (37) with zero submits', async () => {
    rig.sim.scenario.setCredits(email, 0);
    // The page reads the balance when it loads: another project, so this run loads one (a warm
    // page on the last run's project could still show the old balance and let the click through,
    // which Flow refuses with code 8: the refusal path, src/wire/refusal.test.ts).
    const fresh = rig.sim.scenario.createProject(email).id;
    const before = submitCount();
    const error = await rig.session.generateVideo({ ...t2v, projectId: fresh }).catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 37 });
    expect(submitCount()).toBe(before);
  });

  it('a PUBLIC_ERROR_UNUSUAL_ACTIVITY refusal frame → WafRejectionError (10)', async () => {
    rig.sim.scenario.setFailure(email, 'unusual_activity');
    await expect(rig.session.generateImage({ ...image, projectId })).rejects.toMatchObject({ exitCode: 10 });
  });

  it('an UNAUTHENTICATED refusal frame → AuthExpiredError (3)', async () => {
    rig.sim.scenario.setFailure(email, 'unauthenticated');
    await expect(rig.session.generateVideo({ ...t2v, projectId })).rejects.toMatchObject({ exitCode: 3 });
  });

  it('an INTERNAL refusal after the click → FlowAppError (31), not retryable, may have spent', async () => {
    rig.sim.scenario.setFailure(email, 'internal_error');
    const error = await rig.session.generateVideo({ ...t2v, projectId }).catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 31 });
    expect(isRetryable(error)).toBe(false);
  });

  it('HTTP 429 on the image submit → RateLimitError (4) with Retry-After', async () => {
    rig.sim.scenario.setFailure(email, 'http_429', { rpcIds: ['ogiZ0b'], retryAfter: 30 });
    const error = await rig.session.generateImage({ ...image, projectId }).catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 4 });
    expect((error as { extensions: Record<string, unknown> }).extensions['retry_after']).toBe(30);
  });

  it('a refusal frame that names a policy → ContentPolicyError (5)', async () => {
    rig.sim.scenario.setFailure(email, 'content_policy');
    await expect(rig.session.generateImage({ ...image, projectId })).rejects.toMatchObject({ exitCode: 5 });
  });

  it('an image reply without records is not a content refusal (flow-captures.md §6) → WireFormatError (7), not retryable, the hint says it may still appear', async () => {
    rig.sim.scenario.setFailure(email, 'image_empty_reply');
    const error = await rig.session.generateImage({ ...image, projectId }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      exitCode: 7,
      remediationHint: expect.stringContaining('may still appear in the Flow project'),
    });
    expect(isRetryable(error)).toBe(false);
  });

  it('a clip that ends in an unknown status → FlowAppError (31), not retryable, naming the media', async () => {
    rig.sim.scenario.setFailure(email, 'unknown_status', { status: 7 });
    const error = await rig.session.generateVideo({ ...t2v, projectId }).catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: expect.any(Number) });
    expect([5, 31]).toContain((error as { exitCode: number }).exitCode);
    expect(isRetryable(error)).toBe(false);
    expect((error as { extensions: Record<string, unknown> }).extensions['flow_media_id']).toEqual(expect.any(String));
  });

  it('a clip done without its mp4 URL past the grace → WireFormatError (7), not retryable, naming the media', async () => {
    rig.sim.scenario.setFailure(email, 'done_without_url');
    const error = await rig.session.generateVideo({ ...t2v, projectId }).catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 7 });
    expect(isRetryable(error)).toBe(false);
    expect((error as { extensions: Record<string, unknown> }).extensions['flow_media_id']).toEqual(expect.any(String));
  });

  it('an upload reply whose first UUID is the project id is refused (flow-captures.md §9) → WireFormatError (7), nothing submitted', async () => {
    rig.sim.scenario.setFailure(email, 'maseq_project_id_first', { times: 1 });
    const file = path.join(rig.profileDir, 'confusing.png');
    await writeFile(file, makePng(200, 200, 'confusing'));
    const before = submitCount();
    const error = await rig.session
      .generateImage({ ...image, projectId, references: [{ path: file }] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 7, message: expect.stringContaining('names the project id first') });
    expect(submitCount()).toBe(before);
  });

  it('the one-time upload rights dialog → MediaUploadRejectedError (27), never clicked for the user', async () => {
    rig.sim.scenario.updateAccount(email, { uploadTermsAccepted: false });
    const file = path.join(rig.profileDir, 'ref.png');
    await writeFile(file, makePng(200, 200, 'ref'));
    const before = rig.sim.received.calls('maseQ').length;
    const error = await rig.session
      .generateImage({ ...image, projectId, references: [{ path: file }] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 27 });
    expect(String((error as Error).message)).toMatch(/rights to use this image/);
    expect(rig.sim.received.calls('maseQ').length).toBe(before);
    rig.sim.scenario.updateAccount(email, { uploadTermsAccepted: true });
  });

  it('a submit body for another model → WireFormatError (7), not retryable, said clearly, and never sent', async () => {
    // Flow's page itself sends a Fast key although Lite was picked (a page-side rewrite).
    await rig.session.context.addInitScript(() => {
      const original = window.fetch.bind(window);
      window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
        if (typeof init?.body === 'string' && init.body.includes('veo_3_1_t2v_lite')) {
          return original(input, { ...init, body: init.body.replaceAll('veo_3_1_t2v_lite', 'veo_3_1_t2v_fast') });
        }
        return original(input, init);
      };
    });
    const before = submitCount();
    const error = await rig.session.generateVideo({ ...t2v, projectId }).catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 7 });
    expect(isRetryable(error)).toBe(false);
    expect(String((error as Error).message)).toMatch(/not Veo 3\.1 - Lite/);
    expect((error as { extensions: Record<string, unknown> }).extensions['may_have_spent']).toBe(false);
    expect(submitCount()).toBe(before);
  });
});
