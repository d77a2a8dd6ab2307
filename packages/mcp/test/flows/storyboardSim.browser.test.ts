import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { createGflow, type Gflow } from '@gflow/core';
import type { FlowSim } from '@gflow/flow-sim';
import { tempDir } from '@gflow/testkit';
import { type SimBrowser, browserSetting, startSimBrowser } from '@gflow/testkit/browser';
import { afterAll, describe, expect, it } from 'vitest';
import { createGflowMcpServer, openFlowRegistry, type FlowRegistry } from '../../src/index.js';
import { connectClient } from '../clients.js';

const EXAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/examples/flows');
const ACCOUNT = 'storyboard.user@gflow.invalid';
const PROFILE = 'sim';
const PASSWORD = 'correct horse battery';

/**
 * The shipped storyboard_shot flow (image → image-to-video) end to end on
 * the real path: MCP client → flow tool → gflow.run → core generation →
 * driver → Chromium → @gflow/flow-sim. Nothing in it is faked.
 */
describe('storyboard_shot against the Flow simulator (real browser path)', () => {
  let kit: SimBrowser | undefined;
  let sim: FlowSim;
  let gflow: Gflow;
  let registry: FlowRegistry | undefined;
  let home: string;

  async function signedInRuntime(): Promise<void> {
    kit = await startSimBrowser({ seed: 'mcp-flows-storyboard', latency: 'fast' });
    sim = kit.sim;
    // An account that has accepted Flow's one-time image-rights dialog (gflow never affirms it for the user).
    sim.scenario.createAccount({ email: ACCOUNT, password: PASSWORD, credits: 1000, uploadTermsAccepted: true });
    home = tempDir('mcp-sim');
    gflow = createGflow({
      surface: 'mcp',
      // The simulated sign-in takes seconds (minutes on a loaded machine): a bound below the 600 s default.
      env: {
        GFLOW_CLI_HOME: home,
        GFLOW_CLI_OUTPUT_DIR: path.join(home, 'out'),
        GFLOW_CLI_PROFILE: PROFILE,
        GFLOW_CLI_LOG_LEVEL: 'ERROR',
        GFLOW_CLI_AUTH_LOGIN_TIMEOUT: '240',
        ...browserSetting(),
      },
      cwd: home,
      // The only differences from production are launch options: host mapping, the simulator's proxy, its certificate.
      browser: { ...kit.runtimeBrowser, autofillLogin: { email: ACCOUNT, password: PASSWORD } },
      logger: { debug() {}, info() {}, warn() {}, error() {} },
    });
    // A signed-in profile, through the real login flow against the simulator.
    await gflow.run('authLogin', { profile: PROFILE, browser: 'internal', account: ACCOUNT });
    registry = openFlowRegistry(gflow, { dirs: [EXAMPLES], includeHome: false, watch: false });
  }

  afterAll(async () => {
    registry?.close();
    await gflow?.close();
    await kit?.close();
  }, 60_000);

  // Setup runs inside the test, so a failure of sign-in fails this test (a failing hook would only mark it skipped).
  it('generates a still, then animates it with the still as first frame', { timeout: 480_000 }, async () => {
    await signedInRuntime();
    expect(registry?.problems()).toEqual([]);
    const handler = createMcpHandler((ctx) => createGflowMcpServer(gflow, { era: ctx.era, flows: registry }));
    const client = await connectClient(handler, 'legacy');
    try {
      const result = await client.callTool(
        {
          name: 'storyboard_shot',
          arguments: {
            subject: 'a red kite over a green hill',
            motion: 'the kite climbs, slow push-in',
            profile: PROFILE,
          },
        },
        { timeout: 230_000 },
      );
      const out = result.structuredContent as Record<string, unknown>;
      expect(result.isError, JSON.stringify(out)).toBeFalsy();
      expect(out).toMatchObject({
        status: 'completed',
        still_media_id: expect.any(String),
        clip_media_id: expect.any(String),
      });
      expect(out['still_media_id']).not.toBe(out['clip_media_id']);
      const files = out['files'] as string[];
      expect(files).toHaveLength(2);
      for (const file of files) expect(fs.statSync(file).size).toBeGreaterThan(0);
      expect(files[1]).toMatch(/\.mp4$/);
      // The simulator saw an image submit (ogiZ0b), then an i2v submit with a bound start frame (eb1hJf), in one project.
      const submits = sim.received.submits();
      expect(submits.map((entry) => entry.rpcId)).toEqual(['ogiZ0b', 'eb1hJf']);
      expect(submits.every((entry) => entry.httpStatus === 200 && entry.email === ACCOUNT)).toBe(true);
      expect(submits[1]?.sourcePath).toBe(submits[0]?.sourcePath);
      expect(gflow.catalog.assets.getByMediaId(PROFILE, String(out['clip_media_id']))).toMatchObject({ kind: 'video' });
      expect(gflow.catalog.assets.getByMediaId(PROFILE, String(out['still_media_id']))).toMatchObject({
        kind: 'image',
      });
    } finally {
      await client.close();
      await handler.close();
    }
  });
});
