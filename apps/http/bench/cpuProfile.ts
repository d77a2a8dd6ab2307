// Where a process's CPU goes while `run` runs: a V8 CPU profile taken in process (node:inspector),
// its self time summed per origin (the MCP SDK, zod, Hono, gflow's own sources, Node internals,
// the garbage collector). A reading of the daemon's profile for the bench report (issue 45).
import { Session } from 'node:inspector/promises';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly url: string; readonly functionName: string };
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** The origin a frame's script belongs to, by its path (first match). */
const PROFILER = 'the profiler';
const ORIGINS: ReadonlyArray<readonly [string, (url: string, fn: string) => boolean]> = [
  [PROFILER, (u) => u.startsWith('node:inspector')],
  ['garbage collection', (_u, fn) => fn === '(garbage collector)'],
  ['zod (schema checks)', (u) => /node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?zod\//.test(u)],
  ['MCP SDK', (u) => u.includes('@modelcontextprotocol')],
  ['Hono', (u) => /node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?(@hono|hono)\//.test(u)],
  ['other dependencies', (u) => u.includes('node_modules')],
  ['gflow', (u) => u.includes('/packages/') || u.includes('/apps/')],
  ['Node internals (streams, fetch types, JSON)', (u) => u.startsWith('node:') || u === ''],
];

/** Each origin's share of the CPU `run` used (0–1), largest first. */
export async function cpuShares(run: () => Promise<void>): Promise<Array<readonly [string, number]>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  await run();
  const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
  session.disconnect();
  const origin = new Map<number, string>();
  const fnOf = new Map(profile.nodes.map((n) => [n.id, n.callFrame.functionName]));
  for (const node of profile.nodes) {
    const { url, functionName } = node.callFrame;
    origin.set(node.id, ORIGINS.find(([, test]) => test(url, functionName))?.[0] ?? 'other');
  }
  const totals = new Map<string, number>();
  let all = 0;
  profile.samples.forEach((id, i) => {
    const fn = fnOf.get(id);
    // Idle time, and the profiler's own frames, are no part of the run.
    if (fn === '(idle)' || fn === '(program)' || origin.get(id) === PROFILER) return;
    const dt = profile.timeDeltas[i] ?? 0;
    all += dt;
    const name = origin.get(id) ?? 'other';
    totals.set(name, (totals.get(name) ?? 0) + dt);
  });
  return [...totals].map(([name, t]) => [name, t / all] as const).sort((a, b) => b[1] - a[1]);
}
