import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exitCodeOf } from '@gflow/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { createGflow } from '../runtime/createGflow.js';
import type { Gflow } from '../runtime/gflow.js';
import type { Surface } from '../runtime/surfacePolicy.js';
import { checkFlow, checkFlowOutput } from './checkFlowOperation.js';
import { annotationsFor } from './operation.js';

let gflow: Gflow | undefined;
afterEach(async () => {
  await gflow?.close();
  gflow = undefined;
});

/** A home with one signed-in-looking profile and an output directory; no browser can open from here. */
function runtime(surface: Surface): { g: Gflow; home: string } {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-checkflow-'));
  fs.mkdirSync(path.join(home, 'profile_ana'), { recursive: true });
  const env = { GFLOW_CLI_HOME: home, GFLOW_CLI_OUTPUT_DIR: path.join(home, 'out') };
  gflow = createGflow({ surface, env, cwd: home });
  return { g: gflow, home };
}

describe('checkFlow', () => {
  it('is offered everywhere, creates without spending or destroying, and is open-world', () => {
    expect(checkFlow.surfaces).toBeUndefined();
    expect(checkFlow.kind).toBe('create');
    expect(annotationsFor(checkFlow.kind, checkFlow.usesBrowser)).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
  });

  it('keeps its capture inside the output directory on MCP, refused before a browser opens', async () => {
    const { g } = runtime('mcp');
    for (const capture of ['../escape', '/etc/gflow-capture']) {
      const error = await g.run('checkFlow', { profile: 'ana', capture }).catch((e: unknown) => e);
      expect([capture, exitCodeOf(error)]).toEqual([capture, 2]);
      expect(String(error)).toMatch(/capture must resolve inside the output directory/);
    }
  });

  it('refuses a capture directory that cannot be written, before a browser opens', async () => {
    const { g, home } = runtime('cli');
    fs.writeFileSync(path.join(home, 'a-file'), 'x');
    const error = await g
      .run('checkFlow', { profile: 'ana', capture: path.join(home, 'a-file', 'bundle') })
      .catch((e: unknown) => e);
    expect(exitCodeOf(error)).toBe(11);
  });

  it('its output schema is strict: ok or drifted, no other key', () => {
    const base = {
      status: 'ok',
      exit_code: 0,
      profile: 'ana',
      project_id: null,
      project_created: false,
      arm: 'none',
      build_label: null,
      checked_at: '2026-11-02T12:00:00.000Z',
      summary: { ok: 0, drifted: 0, not_offered: 0 },
      capabilities: [],
      replies: [],
      capture: null,
    };
    expect(checkFlowOutput.safeParse(base).success).toBe(true);
    expect(checkFlowOutput.safeParse({ ...base, status: 'failed' }).success).toBe(false);
    expect(checkFlowOutput.safeParse({ ...base, extra: 1 }).success).toBe(false);
  });
});
