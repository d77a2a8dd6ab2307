import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createCertificate } from './net/certificate.js';
import { chromiumArgsFor } from './net/chromiumArgs.js';
import { startControlServer } from './net/controlServer.js';
import type { Res } from './net/http.js';
import { startConnectProxy } from './net/connectProxy.js';
import { ACCOUNTS_HOST, CONTENT_HOST, FLOW_HOST, LABS_HOST, SIM_HOSTS } from './net/hosts.js';
import { createRouter } from './net/router.js';
import { Scenario } from './scenario.js';
import { loadState, persistTo, readSecret } from './state/persistence.js';
import type { ReceivedLog } from './state/received.js';
import { SimState } from './state/simState.js';
import type { LatencySetting, SimLocale, UrlDelay } from './types.js';
import type { Variants } from './variants.js';
import type { DriftName } from './drift.js';

export interface FlowSimOptions {
  /** TLS port on loopback; 0 (default) picks a free one. */
  port?: number;
  host?: string;
  /** Plain-HTTP control port; 0 (default) picks a free one. */
  controlPort?: number;
  seed?: string;
  latency?: LatencySetting;
  /** Whether a clip's URL gap follows `latency` (default `'scaled'`) or stays measured (types.ts `UrlDelay`). */
  urlDelay?: UrlDelay;
  /** Variant switches for uncertain shapes (variants.ts); default: the captured behaviour. */
  variants?: Partial<Variants>;
  /** Drift switches (drift.ts): an anchor renamed or a reply reshaped; default none. */
  drift?: readonly DriftName[];
  locale?: SimLocale;
  /** Persist accounts, projects and media here (and keep cookies valid across restarts). */
  dataDir?: string;
}

export interface FlowSim {
  readonly port: number;
  readonly host: string;
  readonly origins: { flow: string; content: string; labs: string; accounts: string };
  /** Chromium launch arguments mapping every simulated host to this server. */
  readonly chromiumArgs: string[];
  /** Browser context options (the certificate is self-signed). */
  readonly contextOptions: { ignoreHTTPSErrors: true };
  readonly scenario: Scenario;
  readonly received: ReceivedLog;
  /** The Google sign-in page that continues to flow.google.com. */
  readonly signInUrl: string;
  /** Plain-HTTP control endpoint base and its bearer token (see README). */
  readonly control: { url: string; token: string };
  /**
   * A CONNECT proxy that reaches only the simulated hosts: pass it as the
   * browser's proxy so Node-side requests of the browser context (downloads)
   * reach the simulator too.
   */
  readonly proxy: { server: string };
  /** Sign-in URL continuing to a given https URL. */
  signInUrlFor(continueUrl: string): string;
  close(): Promise<void>;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

export async function startFlowSim(options: FlowSimOptions = {}): Promise<FlowSim> {
  const host = options.host ?? '127.0.0.1';
  const secret = options.dataDir === undefined ? undefined : readSecret(options.dataDir);
  const state = new SimState({
    seed: options.seed ?? 'flow-sim',
    latency: options.latency ?? 'fast',
    locale: options.locale ?? 'en-US',
    ...(secret === undefined ? {} : { secret }),
    ...(options.variants ? { variants: options.variants } : {}),
    ...(options.urlDelay ? { urlDelay: options.urlDelay } : {}),
    ...(options.drift ? { drift: options.drift } : {}),
  });
  let flush = (): void => undefined;
  if (options.dataDir !== undefined) {
    loadState(state, options.dataDir);
    flush = persistTo(state, options.dataDir);
  }
  const scenario = new Scenario(state);
  const tls = await createCertificate();
  const hanging = new Set<Res>();
  const server = createServer({ key: tls.key, cert: tls.cert }, createRouter(state, hanging));
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const chromiumArgs = chromiumArgsFor(host, port);
  const proxy = await startConnectProxy(SIM_HOSTS, { host, port });
  const control = await startControlServer(
    state,
    scenario,
    () => ({ chromiumArgs, port, proxy: { server: proxy.url } }),
    host,
    options.controlPort ?? 0,
  );
  const controlPort = (control.address() as AddressInfo).port;
  const signInUrlFor = (continueUrl: string): string =>
    `https://${ACCOUNTS_HOST}/v3/signin/identifier?${new URLSearchParams({ continue: continueUrl })}`;
  return {
    port,
    host,
    origins: {
      flow: `https://${FLOW_HOST}`,
      content: `https://${CONTENT_HOST}`,
      labs: `https://${LABS_HOST}`,
      accounts: `https://${ACCOUNTS_HOST}`,
    },
    chromiumArgs,
    contextOptions: { ignoreHTTPSErrors: true },
    scenario,
    received: state.received,
    signInUrl: signInUrlFor(`https://${FLOW_HOST}/`),
    control: { url: `http://${host}:${controlPort}/__sim`, token: state.controlToken },
    proxy: { server: proxy.url },
    signInUrlFor,
    async close() {
      for (const res of hanging) res.destroy();
      flush();
      await Promise.all([closeServer(server), closeServer(control), proxy.close()]);
    },
  };
}
