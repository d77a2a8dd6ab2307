// The driver's thin part of the test kit: a driver session (openFlowSession) on a fresh temp
// profile, against the kit's simulator + Chromium (@gflow/testkit/browser). The only differences
// from production are launch options: the simulator's host mapping, its CONNECT proxy (so
// Node-side `context.request` downloads reach it too) and its self-signed certificate.
import fs from 'node:fs';
import type { FlowSim } from '@gflow/flow-sim';
import { useStarted } from '@gflow/testkit';
import { type SimBrowser, signIn, startSimBrowser } from '@gflow/testkit/browser';
import { type DriverLogger } from '../../src/util/logger.js';
import { type FlowSession, openFlowSession } from '../../src/index.js';

export interface SimRig {
  readonly sim: FlowSim;
  /** The simulator + Chromium the session runs on (its launch settings, a shared plain browser). */
  readonly kit: SimBrowser;
  readonly profileDir: string;
  session: FlowSession;
  readonly logs: string[];
  open(): Promise<FlowSession>;
  /** Signs `email` in on the session's page, the way a person does. */
  signIn(email: string): Promise<void>;
  close(): Promise<void>;
}

function memoryLogger(logs: string[]): DriverLogger {
  const put = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    logs.push(`${level} ${message}${fields === undefined ? '' : ` ${JSON.stringify(fields)}`}`);
  };
  return { debug: put('debug'), info: put('info'), warn: put('warn'), error: put('error') };
}

/** A simulator plus a driver session on a fresh temp profile. */
export async function startRig(seed: string): Promise<SimRig> {
  const kit = await startSimBrowser({ seed, latency: 'fast' });
  const profileDir = kit.tempPath('profile');
  fs.mkdirSync(profileDir, { recursive: true });
  const logs: string[] = [];
  const rig: SimRig = {
    sim: kit.sim,
    kit,
    profileDir,
    logs,
    session: undefined as unknown as FlowSession,
    async open() {
      rig.session = await openFlowSession({
        profileDir,
        ...kit.launch,
        flowHost: 'auto',
        logger: memoryLogger(logs),
        // URLs arrive 2–8 s after a clip is done (flow-captures.md §4; video.browser runs that gap unscaled): the grace covers it.
        timeouts: { readyMs: 20_000, uploadMs: 8_000, urlGraceMs: 12_000 },
      });
      return rig.session;
    },
    async signIn(email: string) {
      const page = rig.session.context.pages()[0] ?? (await rig.session.context.newPage());
      await signIn(page, kit.sim, email);
    },
    async close() {
      await rig.session?.close().catch(() => undefined);
      await kit.close();
    },
  };
  try {
    await rig.open();
  } catch (error) {
    await kit.close();
    throw error;
  }
  return rig;
}

/** startRig in the file's beforeAll, closed in its afterAll. */
export function useRig(seed: string): SimRig {
  return useStarted('the driver rig', () => startRig(seed));
}
