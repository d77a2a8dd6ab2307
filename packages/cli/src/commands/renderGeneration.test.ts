import { ContentPolicyError, FlowAppError, exitCodeForCode, exitCodeOf, toErrorEnvelopeBody } from '@gflow/errors';
import { describe, expect, it } from 'vitest';
import { createBufferIo } from '../cliIo.js';
import type { LeafContext } from '../framework/leafContext.js';
import { renderFailure } from '../output/renderFailure.js';
import { renderGeneration } from './generationFlags.js';

const ctx = { json: false, commandPath: 'image t2i' } as unknown as LeafContext;

describe('renderGeneration', () => {
  it('a run of two images shows both media ids and both files, and sums them up in one line', () => {
    const out = renderGeneration(
      {
        status: 'completed',
        task_id: 't-1',
        flow_project_id: 'proj-1',
        flow_media_id: 'm-1',
        files: ['/out/images/a.jpg', '/out/images/b.jpg'],
        media: [
          { media_id: 'm-1', file: '/out/images/a.jpg' },
          { media_id: 'm-2', file: '/out/images/b.jpg' },
        ],
      },
      ctx,
    );
    expect(out.text).toMatch(/^media:\s+m-1, m-2$/m);
    expect(out.text).toContain('/out/images/b.jpg');
    expect(out.summary).toBe('Made 2 images in project proj-1: /out/images/');
  });

  it('the characters attached are named on the terminal too, by name and id', () => {
    const out = renderGeneration(
      {
        status: 'completed',
        task_id: 't-5',
        flow_project_id: 'proj-5',
        flow_media_id: 'm-5',
        files: ['/out/images/m-5.jpg'],
        characters: [{ id: 'ent-1', name: 'Mira' }],
      },
      ctx,
    );
    expect(out.text).toMatch(/^characters:\s+Mira \(ent-1\)$/m);
  });

  const json = { json: true, commandPath: 'image t2i' } as unknown as LeafContext;

  it('an unknown prompt tool is a bad parameter: exit 2, and --json gives the problem, not a string', () => {
    const result = { status: 'invalid_tools', error: 'Unknown prompt tool(s): noir. Known: cinematic.' };
    expect(() => renderGeneration(result, ctx)).toThrow(/Unknown prompt tool/);
    const out = renderGeneration(result, json);
    expect(out.exitCode).toBe(2);
    expect(out.data).toMatchObject({
      status: 'invalid_tools',
      error: { type: 'https://gflow.dev/errors/bad-parameter', parameter: 'tools', detail: result.error },
    });
  });

  it('a failed job keeps its status, ids and problem, with the problem type’s exit code', () => {
    const error = toErrorEnvelopeBody(new ContentPolicyError('Flow said no.'));
    const out = renderGeneration({ status: 'failed', task_id: 't-2', flow_project_id: 'p-2', error }, json);
    expect(out.data).toEqual({ status: 'failed', task_id: 't-2', flow_project_id: 'p-2', error });
    expect(out.exitCode).toBe(exitCodeForCode('content-policy'));
    expect(out.exitCode).not.toBe(1);
  });

  it('a job ended without an error document still prints one (indeterminate after a Ctrl-C)', () => {
    const out = renderGeneration({ status: 'indeterminate', task_id: 't-3', flow_media_ids: ['m-9'] }, json);
    expect(out.exitCode).toBe(130);
    expect(out.data).toMatchObject({
      status: 'indeterminate',
      error: { type: 'https://gflow.dev/errors/cancelled', remediation_hint: expect.stringContaining('m-9') },
    });
  });

  it('on a terminal, a job that may have spent names its Flow project and media on its Error lines', () => {
    const error = toErrorEnvelopeBody(new FlowAppError('Flow reported the clip failed.'));
    const result = { status: 'failed', task_id: 't-4', flow_project_id: 'p-4', flow_media_ids: ['m-4', 'm-5'], error };
    let thrown: unknown;
    try {
      renderGeneration(result, ctx);
    } catch (failure) {
      thrown = failure;
    }
    expect(thrown).toBeInstanceOf(FlowAppError);
    const io = createBufferIo();
    const exitCode = renderFailure(io, thrown, { json: false, env: {} });
    expect(exitCode).toBe(exitCodeOf(new FlowAppError('x')));
    expect(io.err()).toMatch(/^ {2}Flow project: p-4$/m);
    expect(io.err()).toMatch(/^ {2}Media: m-4, m-5$/m);
  });
});
