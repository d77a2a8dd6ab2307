// Journey: an account whose Flow composer is agent-only (flow-wire §4, seed 000 §6.1 / #799).
// Text-to-image and text-to-video go through Flow's chat agent, on the CLI and over MCP; files and
// catalog rows as for any generation (seed 0), the agent's settings as they were before; the forms
// the agent cannot take are refused before anything is clicked.
import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { json, jsonLines } from '@gflow/testkit';
import { SANDBOX_EMAIL, submits, useSandbox } from '@gflow/testkit/sandbox';
import { aspectError, imagePixels, videoPixels } from './helpers/media.js';

const e2e = useSandbox({ seed: 'journey-agent-only' });
let project: string;
/** Not Flow's defaults, so "restored" cannot pass by accident. */
const SAVED = { imageAspect: '1:1', imageCount: 3, videoModel: 'Veo 3.1 - Fast', confirm: 'always' } as const;

beforeAll(async () => {
  await e2e.signIn();
  e2e.sim.scenario.setCohort(SANDBOX_EMAIL, 'agent_only');
  project = e2e.sim.scenario.createProject(SANDBOX_EMAIL, { title: 'Agent only' }).id;
  e2e.sim.scenario.setAgentSettings(project, SAVED);
}, 120_000);

interface Generated {
  readonly status: string;
  readonly flow_media_id: string;
  readonly flow_project_id: string;
  readonly files: string[];
  readonly media: Array<{ media_id: string; seed: number | null }>;
  readonly ui_arm?: string;
}

async function catalogRow(kind: 'images' | 'videos', mediaId: string): Promise<Record<string, unknown> | undefined> {
  const rows = jsonLines(await e2e.cli(['data', 'list', kind, '--sandbox', '--json', '--limit', '100']));
  return rows.find((row) => row['media_id'] === mediaId);
}

describe('an agent-only account generates through the agent', () => {
  it('CLI: image t2i --aspect 16:9 -n 2 and video t2v write files and catalog rows; settings as before', async () => {
    e2e.sim.received.clear();
    const before = e2e.sim.scenario.agentSettingsOf(project);
    const run = await e2e.cli([
      'image',
      't2i',
      'a red kite over dunes',
      '--aspect',
      '16:9',
      '-n',
      '2',
      '--project',
      project,
      '--sandbox',
      '--json',
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    const image = json(run) as unknown as Generated;
    expect(image).toMatchObject({ status: 'completed', flow_project_id: project, ui_arm: 'agent-only' });
    expect(image.files).toHaveLength(2);
    for (const file of image.files) {
      const pixels = imagePixels(file);
      expect(pixels, file).not.toBeNull();
      expect(aspectError(pixels!, '16:9')).toBeLessThan(0.02);
    }
    expect(image.media.map((m) => m.seed)).toEqual([0, 0]);
    expect(await catalogRow('images', image.media[1]!.media_id)).toMatchObject({
      kind: 'image',
      project_id: project,
      status: 'ready',
      aspect_ratio: '16:9',
      bytes: fs.statSync(image.files[1]!).size,
    });

    const videoRun = await e2e.cli(['video', 't2v', 'waves on a pier', '--project', project, '--sandbox', '--json']);
    expect(videoRun.exitCode, videoRun.stderr).toBe(0);
    const video = json(videoRun) as unknown as Generated;
    expect(video).toMatchObject({ status: 'completed', ui_arm: 'agent-only' });
    expect(videoPixels(video.files[0]!)).not.toBeNull();
    expect(await catalogRow('videos', video.flow_media_id)).toMatchObject({ kind: 'video', status: 'ready' });

    // Nothing went through the classic composer, and the agent's settings are as they were.
    expect(submits(e2e.sim)).toEqual([]);
    expect(e2e.sim.received.calls('agent.turn')).toHaveLength(2);
    expect(e2e.sim.scenario.agentSettingsOf(project)).toEqual(before);
  }, 240_000);

  it('CLI: a form the agent cannot take is exit 36 with nothing clicked; --ui-mode agentic on video is exit 2', async () => {
    e2e.sim.received.clear();
    const two = await e2e.cli([
      'video',
      't2v',
      'two clips',
      '--count',
      '2',
      '--project',
      project,
      '--sandbox',
      '--json',
    ]);
    expect(two.exitCode, two.stderr).toBe(36);
    const agentic = await e2e.cli(['video', 't2v', 'x', '--ui-mode', 'agentic', '--project', project, '--sandbox']);
    expect(agentic.exitCode).toBe(2);
    expect(e2e.sim.received.calls('agent.turn')).toHaveLength(0);
  }, 120_000);

  it('MCP stdio: gflow_generate_image and gflow_generate_video complete; agentic video is a 400 before any browser work', async () => {
    const conn = await e2e.mcpStdio(['--sandbox']);
    try {
      const before = e2e.sim.scenario.agentSettingsOf(project);
      const image = await conn.call('gflow_generate_image', { prompt: 'a paper lantern', aspect: '9:16', project });
      expect(image.isError, JSON.stringify(image.structured)).toBe(false);
      expect(image.structured).toMatchObject({ status: 'completed', ui_arm: 'agent-only', seed: 0 });
      const video = await conn.call('gflow_generate_video', { prompt: 'rain on glass', mode: 't2v', project });
      expect(video.isError, JSON.stringify(video.structured)).toBe(false);
      expect(video.structured).toMatchObject({ status: 'completed', ui_arm: 'agent-only' });
      e2e.sim.received.clear();
      const agentic = await conn.call('gflow_generate_video', { prompt: 'x', ui_mode: 'agentic', project });
      expect(agentic.isError).toBe(true);
      expect(JSON.stringify(agentic.structured)).toContain('400');
      expect(e2e.sim.received.calls('agent.turn')).toHaveLength(0);
      expect(e2e.sim.scenario.agentSettingsOf(project)).toEqual(before);
    } catch (error) {
      throw new Error(`${String(error)}\nserver stderr:\n${conn.stderr().slice(-3000)}`, { cause: error });
    } finally {
      await conn.close();
    }
  }, 240_000);
});
