import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { Scenario } from '../scenario.js';
import type { SimState } from '../state/simState.js';
import { readBody, sendJson } from './http.js';

/** Scenario methods that the HTTP control endpoint may call. */
export const CONTROL_METHODS = [
  'createAccount',
  'getAccount',
  'updateAccount',
  'setCohort',
  'setFlowAccess',
  'setCredits',
  'getCredits',
  'signOut',
  'setFailure',
  'clearFailure',
  'clearFailures',
  'listFailures',
  'setLatency',
  'setUrlDelay',
  'pinUrlGap',
  'unpinUrlGap',
  'setDrift',
  'getDrift',
  'setLocale',
  'setUrlTtl',
  'setVariants',
  'resetVariants',
  'getVariants',
  'createProject',
  'addInstruction',
  'addInstructionCard',
  'briefOf',
  'setBriefEnabled',
  'addCharacter',
  'projectsOf',
  'createScene',
  'sceneClips',
  'clipOf',
  'setImageReady',
] as const;

export interface ControlInfo {
  chromiumArgs: string[];
  port: number;
  readonly proxy?: { readonly server: string };
}

function authorized(state: SimState, header: string | undefined): boolean {
  const given = Buffer.from((header ?? '').replace(/^Bearer\s+/i, ''));
  const want = Buffer.from(state.controlToken);
  return given.length === want.length && timingSafeEqual(given, want);
}

/**
 * Plain-HTTP control endpoint on loopback for out-of-process use. Every request needs
 * `authorization: Bearer <token>`. POST /__sim/scenario {"method","args"} calls a Scenario method;
 * GET /__sim/received lists batchexecute calls; POST /__sim/received/clear empties it; GET /__sim/launch.
 */
export function startControlServer(
  state: SimState,
  scenario: Scenario,
  info: () => ControlInfo,
  host: string,
  port: number,
): Promise<Server> {
  const server = createServer((req, res) => {
    const run = async (): Promise<void> => {
      if (!authorized(state, req.headers.authorization)) return sendJson(res, 401, { error: 'bad or missing token' });
      const url = new URL(req.url ?? '/', 'http://control');
      if (req.method === 'GET' && url.pathname === '/__sim/launch')
        return sendJson(res, 200, { ...info(), contextOptions: { ignoreHTTPSErrors: true } });
      if (req.method === 'GET' && url.pathname === '/__sim/received') {
        return sendJson(res, 200, state.received.calls(url.searchParams.get('rpc') ?? undefined));
      }
      if (req.method === 'POST' && url.pathname === '/__sim/received/clear') {
        state.received.clear();
        return sendJson(res, 200, { ok: true });
      }
      if (req.method === 'POST' && url.pathname === '/__sim/scenario') {
        const body = JSON.parse((await readBody(req)).toString('utf8') || '{}') as {
          method?: string;
          args?: unknown[];
        };
        const method = CONTROL_METHODS.find((m) => m === body.method);
        if (method === undefined)
          return sendJson(res, 400, { error: `unknown method ${String(body.method)}`, methods: CONTROL_METHODS });
        const fn = scenario[method] as (...args: unknown[]) => unknown;
        const result = fn.apply(scenario, Array.isArray(body.args) ? body.args : []);
        return sendJson(res, 200, { result: result ?? null });
      }
      sendJson(res, 404, { error: 'not found' });
    };
    run().catch((error: unknown) =>
      sendJson(res, 400, { error: error instanceof Error ? error.message : String(error) }),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
