import { SIM_HOSTS } from './hosts.js';

/**
 * Chromium arguments that send every simulated host to the simulator's loopback port.
 * A browser connects to `flow.google.com:443`; the MAP rule rewrites that to
 * `127.0.0.1:<port>`. `MAP * ~NOTFOUND` makes every other name unresolvable, so no real
 * Google host (or any other) can be contacted from a browser launched with these args.
 */
export function chromiumArgsFor(host: string, port: number): string[] {
  // Loopback stays reachable: the simulator's CONNECT proxy (sim.proxy) listens there.
  const rules = [
    ...SIM_HOSTS.map((name) => `MAP ${name} ${host}:${port}`),
    'MAP * ~NOTFOUND',
    'EXCLUDE localhost',
    `EXCLUDE ${host}`,
  ];
  return [`--host-resolver-rules=${rules.join(', ')}`, '--disable-quic'];
}
