import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type FlowSim, SIM_HOSTS, startFlowSim } from '@gflow/flow-sim';
import { startConnectProxy } from './connectProxy.js';
import { type FlowSession, openFlowSession } from '../../src/index.js';
import type { DriverLogger } from '../../src/index.js';

export const CHROMIUM = process.env['GFLOW_CLI_BROWSER_EXECUTABLE'] ?? '/usr/bin/chromium';

export interface SimRig {
  readonly sim: FlowSim;
  readonly profileDir: string;
  session: FlowSession;
  readonly logs: string[];
  open(): Promise<FlowSession>;
  signIn(email: string): Promise<void>;
  close(): Promise<void>;
}

function memoryLogger(logs: string[]): DriverLogger {
  const put = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    logs.push(`${level} ${message}${fields === undefined ? '' : ` ${JSON.stringify(fields)}`}`);
  };
  return { debug: put('debug'), info: put('info'), warn: put('warn'), error: put('error') };
}

/** A simulator plus a driver session on a fresh temp profile: the only differences from production are launch options. */
export async function startRig(seed: string): Promise<SimRig> {
  const sim = await startFlowSim({ seed, latency: 'fast' });
  const proxy = await startConnectProxy(SIM_HOSTS, { host: sim.host, port: sim.port });
  const profileDir = await mkdtemp(path.join(os.tmpdir(), 'gflow-driver-'));
  const logs: string[] = [];
  const rig: SimRig = {
    sim,
    profileDir,
    logs,
    session: undefined as unknown as FlowSession,
    async open() {
      rig.session = await openFlowSession({
        profileDir,
        executablePath: CHROMIUM,
        headless: true,
        // The proxy is an IP literal; let it bypass the simulator's catch-all resolver rule.
        extraArgs: sim.chromiumArgs.map((a) => (a.startsWith('--host-resolver-rules=') ? `${a}, EXCLUDE 127.0.0.1` : a)),
        ignoreHTTPSErrors: true,
        proxy: { server: proxy.url },
        flowHost: 'auto',
        logger: memoryLogger(logs),
        // URLs arrive 2–8 s after a clip is done at every latency (flow-captures.md §4): the grace covers that.
        timeouts: { readyMs: 20_000, uploadMs: 8_000, urlGraceMs: 12_000 },
      });
      return rig.session;
    },
    async signIn(email: string) {
      const page = rig.session.context.pages()[0] ?? (await rig.session.context.newPage());
      await page.goto(sim.signInUrl);
      await page.fill('#identifierId', email);
      await page.click('#identifierNext button');
      await page.fill('input[name=Passwd]', 'correct horse');
      await page.click('#passwordNext button');
      await page.waitForURL((u) => u.hostname === 'flow.google.com');
    },
    async close() {
      await rig.session?.close().catch(() => undefined);
      await sim.close();
      await proxy.close();
      await rm(profileDir, { recursive: true, force: true });
    },
  };
  await rig.open();
  return rig;
}
