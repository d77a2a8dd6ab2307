// How `gflow task wait` ends: the exit code and output of each final envelope, and its progress lines.
import {
  CancelledError,
  ContentPolicyError,
  DaemonRecoveryError,
  exitCodeOf,
  toErrorEnvelopeBody,
} from '@gflow/errors';
import { describe, expect, it } from 'vitest';
import type { LeafContext } from '../framework/leafContext.js';
import { renderTaskOutcome, taskFields, taskProgressLine } from './taskCommands.js';

const json = { json: true } as LeafContext;
const terminal = { json: false } as LeafContext;
const ended = (status: string, error: unknown) => ({
  status,
  task_id: 't-1',
  task_type: 't2i',
  error: toErrorEnvelopeBody(error),
});

describe('task wait: the final envelope', () => {
  it('completed: exit 0, the files first on a terminal, the envelope with --json', () => {
    const done = { status: 'completed', task_id: 't-1', files: ['/o/a.jpg'], flow_media_id: 'm1' };
    expect(renderTaskOutcome(done, json)).toMatchObject({ data: done });
    expect(renderTaskOutcome(done, json).exitCode ?? 0).toBe(0);
    expect(renderTaskOutcome(done, terminal).text).toMatch(/^\/o\/a\.jpg\n/);
  });

  it("otherwise the error's own exit code: --json keeps the envelope, a terminal gets the error thrown", () => {
    const cases: Array<[string, unknown, number]> = [
      ['failed', new ContentPolicyError('Refused.'), 5],
      ['indeterminate', new CancelledError('Cancelled after the submit.'), 130],
      ['cancelled', new CancelledError('Cancelled before it ran.'), 130],
      ['failed', new DaemonRecoveryError('The worker died.'), exitCodeOf(new DaemonRecoveryError('x'))],
    ];
    for (const [status, error, code] of cases) {
      const envelope = ended(status, error);
      expect(renderTaskOutcome(envelope, json)).toEqual({ data: envelope, exitCode: code });
      let thrown: unknown;
      try {
        renderTaskOutcome(envelope, terminal);
      } catch (e) {
        thrown = e;
      }
      expect(exitCodeOf(thrown)).toBe(code);
    }
    expect(renderTaskOutcome({ status: 'failed' }, json).exitCode).toBe(1);
  });

  it('progress lines name the task by its first eight characters and the phase', () => {
    expect(taskProgressLine('6f1c2a3b-0000-4000', { phase: 'submitting', elapsedMs: 2000 })).toBe(
      'task 6f1c2a3b: Submitting 2s\n',
    );
  });

  it('task show names the Flow project and media a task reached (where credits may have gone), or says none', () => {
    const base = { task_id: 't-1', status: 'indeterminate', may_have_spent: true, runner: null };
    expect(taskFields({ ...base, flow_project_id: 'p-1', flow_media_ids: ['m-1', 'm-2'] })).toMatchObject({
      project: 'p-1',
      media: 'm-1, m-2',
    });
    expect(taskFields({ ...base, flow_project_id: null, flow_media_ids: [] })).toMatchObject({
      project: null,
      media: null,
    });
  });
});
