// Warm vs cold generations, measured side by side in one run against the
// simulator in real headless Chromium: a CLI-like runtime opens and closes the
// browser (and the profile lease) for every call; a daemon-like runtime keeps
// the profile's browser warm between calls. Prints medians and the ratio and
// writes bench/RESULTS.md.
//   pnpm --filter @gflow/core bench [rounds]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signInProfile, startHarness } from '../test/simHarness.js';

const rounds = Number(process.argv[2] ?? 5);
const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

const h = await startHarness();
h.sim.scenario.createAccount({ email: 'bench@example.com', credits: 100_000, uploadTermsAccepted: true });
const cold = h.gflow('cli');
const warm = h.gflow('http');
await signInProfile(cold, h.sim, 'bench', 'bench@example.com');
const project = (
  (await cold.run('generateImage', { prompt: 'warm-up', profile: 'bench' })) as { flow_project_id: string }
).flow_project_id;
await warm.run('generateImage', { prompt: 'warm-up', profile: 'bench', project });

const samples = { cold: [] as number[], warm: [] as number[] };
for (let i = 0; i < rounds; i++) {
  for (const [name, runtime] of [
    ['cold', cold],
    ['warm', warm],
  ] as const) {
    // A warm runtime holds the profile's lease; hand it over between the two styles.
    if (name === 'cold') await warm.sessions.closeAll();
    const start = performance.now();
    const result = (await runtime.run('generateImage', {
      prompt: `bench ${name} ${i}`,
      profile: 'bench',
      project,
    })) as { status: string };
    if (result.status !== 'completed') throw new Error(`${name} generation ${i}: ${JSON.stringify(result)}`);
    samples[name].push(performance.now() - start);
  }
}
await h.close();

const coldMs = median(samples.cold);
const warmMs = median(samples.warm);
const cpus = os.cpus();
const lines = [
  '## @gflow/core: warm vs cold generations',
  '',
  `Date: ${new Date().toISOString()}. Machine: ${cpus[0]?.model ?? '?'} ×${cpus.length}, Node ${process.version}. Simulator latency "fast"; one image per call; ${rounds} interleaved rounds.`,
  '',
  '| runtime | median per generation | ratio |',
  '|---|---|---|',
  `| cold (CLI: browser and lease per call) | ${coldMs.toFixed(0)} ms | ${(coldMs / warmMs).toFixed(2)}× |`,
  `| warm (daemon: browser kept between calls) | ${warmMs.toFixed(0)} ms | 1.00× |`,
  '',
  "The difference is the browser launch a warm session skips (it still opens the project page for each call); the simulator's own generation latency dominates both.",
  '',
];
fs.writeFileSync(path.join(import.meta.dirname, 'RESULTS.md'), lines.join('\n'));
process.stdout.write(`${lines.join('\n')}\n`);
