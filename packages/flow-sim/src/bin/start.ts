#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { startFlowSim } from '../startFlowSim.js';
import type { FlowSimOptions } from '../startFlowSim.js';
import type { SimLocale } from '../types.js';
import { checkDrift } from '../drift.js';

/** `pnpm --filter @gflow/flow-sim start`: runs the simulator in the foreground. */
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const { values } = parseArgs({
    args: argv[0] === '--' ? argv.slice(1) : argv,
    options: {
      port: { type: 'string', default: '0' },
      'control-port': { type: 'string', default: '0' },
      seed: { type: 'string' },
      latency: { type: 'string', default: 'fast' },
      'url-delay': { type: 'string', default: 'scaled' },
      locale: { type: 'string', default: 'en-US' },
      'data-dir': { type: 'string' },
      account: { type: 'string', multiple: true },
      drift: { type: 'string', multiple: true },
    },
  });
  const latency = values.latency === 'fast' || values.latency === 'realistic' ? values.latency : Number(values.latency);
  const urlDelay = values['url-delay'];
  if (urlDelay !== 'scaled' && urlDelay !== 'measured')
    throw new Error(`--url-delay is scaled or measured, not ${urlDelay}`);
  const options: FlowSimOptions = {
    urlDelay,
    port: Number(values.port),
    controlPort: Number(values['control-port']),
    latency,
    locale: values.locale as SimLocale,
  };
  if (values.seed !== undefined) options.seed = values.seed;
  if (values['data-dir'] !== undefined) options.dataDir = values['data-dir'];
  if (values.drift !== undefined) options.drift = checkDrift(values.drift);
  const sim = await startFlowSim(options);
  for (const email of values.account ?? []) {
    sim.scenario.createAccount({ email });
    if (sim.scenario.projectsOf(email).length === 0) sim.scenario.createProject(email, { title: 'Sandbox project' });
  }
  const out = process.stdout;
  out.write(`flow-sim listening on https://${sim.host}:${sim.port} as ${Object.values(sim.origins).join(', ')}\n`);
  out.write(`Chromium args:\n${sim.chromiumArgs.map((a) => `  ${a}`).join('\n')}\n`);
  out.write(`Context options: ${JSON.stringify(sim.contextOptions)}\n`);
  out.write(`Sign in: ${sim.signInUrl}\n`);
  out.write(`Control: ${sim.control.url}  (authorization: Bearer ${sim.control.token})\n`);
  out.write(`FLOW_SIM_LAUNCH=${JSON.stringify({ chromiumArgs: sim.chromiumArgs, control: sim.control })}\n`);
  const stop = (): void => {
    sim.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`flow-sim failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
