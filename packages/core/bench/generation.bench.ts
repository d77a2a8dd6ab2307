// Generation overhead, measured side by side in one run against the simulator in
// real headless Chromium, in phases: call → submit click (pre-submit), submit →
// reply (the simulator's own latency: reported, not optimised), reply → result
// (download + catalog). Three styles per form and latency:
//   cold        a CLI-like runtime: browser and lease per call;
//   warm        a daemon-like runtime, browser kept, the call on another project
//               than its previous one (it navigates);
//   warm-same   the same daemon, the same project as its previous call (the open
//               page is reused after a health check).
// Each round pins one URL gap for its clips (the simulator's pinUrlGap, drawn as a clip's is): the
// styles of a round wait the same time for Flow, and their ratios to cold are taken per round.
// Prints the medians and ratios and writes bench/RESULTS.md.
//   pnpm --filter @gflow/core bench [rounds]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makePng } from '@gflow/flow-sim';
import type { Gflow } from '../src/runtime/gflow.js';
import type { ProgressEvent } from '../src/runtime/progressPhases.js';
import { signInProfile, startHarness } from '../test/simHarness.js';

const rounds = Number(process.argv[2] ?? 5);
const LATENCIES = ['fast', 0.1] as const;
const STYLES = ['cold', 'warm', 'warm-same'] as const;
type Style = (typeof STYLES)[number];
type Form = 't2i' | 'i2v';

interface Sample {
  readonly preSubmit: number;
  /** From the driver opening the project (the browser up) to the submit click. */
  readonly afterBrowser: number;
  readonly submitToReply: number;
  readonly replyToResult: number;
  readonly total: number;
  /** What the simulator held its submit reply for (its own latency). */
  readonly simHeld: number;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

const h = await startHarness();
h.sim.scenario.createAccount({ email: 'bench@example.com', credits: 1_000_000, uploadTermsAccepted: true });
const cold = h.gflow('cli');
// The daemon's surface (browser kept warm), its generation brake raised so the rounds measure the driver, not the token bucket.
const warm = h.gflow('http', { GFLOW_CLI_RATE_LIMIT_CAPACITY: '1000' });
await signInProfile(cold, h.sim, 'bench', 'bench@example.com');
const frame = path.join(h.home, 'start-frame.png');
fs.writeFileSync(frame, makePng(64, 112));

async function newProject(): Promise<string> {
  const made = (await cold.run('generateImage', { prompt: 'warm-up', profile: 'bench' })) as {
    flow_project_id: string;
  };
  return made.flow_project_id;
}

/** One generation, its phases read from the progress events and the simulator's received log. */
async function measure(runtime: Gflow, form: Form, project: string, tag: string): Promise<Sample> {
  const seen = new Map<string, number>();
  const onProgress = (event: ProgressEvent): void => {
    const now = performance.now();
    // The last `starting-browser` before the submit is the driver opening the project (the browser is up).
    if (event.phase === 'starting-browser' && !seen.has('submit')) seen.set('browser', now);
    const key =
      event.phase === 'submitting'
        ? 'submit'
        : ['done', 'downloading', 'recording'].includes(event.phase)
          ? 'reply'
          : '';
    if (key !== '' && !seen.has(key) && (key === 'submit' || seen.has('submit'))) seen.set(key, now);
  };
  const before = h.sim.received.submits().length;
  const start = performance.now();
  const result = (
    form === 't2i'
      ? await runtime.run('generateImage', { prompt: `bench ${tag}`, profile: 'bench', project }, { onProgress })
      : await runtime.run(
          'generateVideo',
          { prompt: `bench ${tag}`, profile: 'bench', project, mode: 'i2v', initial_frame: frame },
          { onProgress },
        )
  ) as { status: string };
  const end = performance.now();
  if (result.status !== 'completed') throw new Error(`${tag}: ${JSON.stringify(result)}`);
  const submit = seen.get('submit');
  const reply = seen.get('reply');
  if (submit === undefined || reply === undefined) throw new Error(`${tag}: no submitting/reply progress events`);
  const submitted = h.sim.received.submits().slice(before);
  if (submitted.length !== 1) throw new Error(`${tag}: ${submitted.length} submits on the wire`);
  return {
    preSubmit: submit - start,
    afterBrowser: submit - (seen.get('browser') ?? start),
    submitToReply: reply - submit,
    replyToResult: end - reply,
    total: end - start,
    simHeld: (submitted[0] as { replyDelayMs: number }).replyDelayMs,
  };
}

const results: Array<{ latency: string; form: Form; style: Style; samples: Sample[] }> = [];
/** The URL gap every clip of a round waited (i2v), per latency. */
const gaps = new Map<string, number[]>();
const [p1, p2] = [await newProject(), await newProject()];
// Flow's URL gap as measured at every latency, so the i2v rows stay comparable across runs.
h.sim.scenario.setUrlDelay('measured');
for (const latency of LATENCIES) {
  h.sim.scenario.setLatency(latency);
  for (const form of ['t2i', 'i2v'] as const) {
    const samples: Record<Style, Sample[]> = { cold: [], warm: [], 'warm-same': [] };
    const formRounds = form === 'i2v' ? Math.max(1, Math.ceil(rounds / 2)) : rounds;
    for (let i = 0; i < formRounds; i++) {
      const tag = `${latency} ${form} ${i}`;
      // One URL gap per round, drawn as a clip's is: every style of the round waits the same for Flow.
      const gap = h.sim.scenario.pinUrlGap();
      if (form === 'i2v') gaps.set(String(latency), [...(gaps.get(String(latency)) ?? []), gap]);
      // A warm runtime holds the profile's lease; hand it over between the styles.
      await warm.sessions.closeAll();
      samples.cold.push(await measure(cold, form, p1, `${tag} cold`));
      await measure(warm, form, p2, `${tag} warm-up`); // the daemon's browser launch, not measured
      samples.warm.push(await measure(warm, form, p1, `${tag} warm`));
      samples['warm-same'].push(await measure(warm, form, p1, `${tag} warm-same`));
    }
    for (const style of STYLES) results.push({ latency: String(latency), form, style, samples: samples[style] });
  }
}
h.sim.scenario.unpinUrlGap();
await h.close();

const ms = (v: number): string => `${v.toFixed(0)} ms`;
/** gflow's own time around Flow's in one call: everything but submit → reply. */
const overheadOf = (s: Sample): number => s.total - s.submitToReply;
const rows = results.map((r) => {
  const m = (k: keyof Sample): number => median(r.samples.map((s) => s[k]));
  const coldRun = results.find((c) => c.latency === r.latency && c.form === r.form && c.style === 'cold');
  // Paired by round (the same Flow time within one): the median of cold's over this style's.
  const vsCold = (of: (s: Sample) => number): number =>
    median(r.samples.map((s, i) => of(coldRun?.samples[i] ?? s) / of(s)));
  return {
    ...r,
    pre: m('preSubmit'),
    up: m('afterBrowser'),
    flow: m('submitToReply'),
    after: m('replyToResult'),
    total: m('total'),
    held: m('simHeld'),
    overhead: median(r.samples.map(overheadOf)),
    totalVsCold: vsCold((s) => s.total),
    overheadVsCold: vsCold(overheadOf),
  };
});
const cpus = os.cpus();
const i2vRounds = Math.max(1, Math.ceil(rounds / 2));
const lines = [
  '## @gflow/core: generation overhead in phases',
  '',
  `Date: ${new Date().toISOString()}. Machine: ${cpus[0]?.model ?? '?'} ×${cpus.length}, Node ${process.version}. One image (t2i) or one i2v clip (a local start frame: uploaded by the first call, attached in place after) per call; ${rounds} interleaved rounds of t2i, ${i2vRounds} of i2v, per latency. Medians.`,
  '',
  'cold: CLI-like runtime, browser and lease per call. warm: daemon, browser kept, the call in another project than its previous one. warm-same: daemon, same project as its previous call.',
  '',
  '| latency | form | style | pre-submit | of it after the browser is up | submit → reply | reply → result | total | simulator held its reply | overhead | overhead / Flow time | total vs cold | overhead vs cold |',
  '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
];
for (const r of rows) {
  lines.push(
    `| ${r.latency} | ${r.form} | ${r.style} | ${ms(r.pre)} | ${ms(r.up)} | ${ms(r.flow)} | ${ms(r.after)} | ${ms(r.total)} | ${ms(r.held)} | ${ms(r.overhead)} | ${(r.overhead / r.flow).toFixed(2)}× | ${r.totalVsCold.toFixed(2)}× faster | ${r.overheadVsCold.toFixed(2)}× less |`,
  );
}
const gapList = [...gaps].map(([latency, g]) => `${latency}: ${g.map((v) => `${(v / 1000).toFixed(1)} s`).join(', ')}`);
lines.push(
  '',
  "overhead = total − (submit → reply): gflow's own time around Flow's. For i2v, submit → reply runs to the clip's download URL, which the simulator (as Flow, flow-captures §4) signs 2–8 s after the clip is done (the measured gap, at every latency).",
  `One URL gap is drawn per round and every style of that round waits it (the simulator's pinUrlGap), so a round's styles see the same Flow time; i2v rounds' gaps: ${gapList.join('; ')}. "total vs cold" and "overhead vs cold" are the medians of the per-round ratios (cold's over the style's).`,
  '',
);
fs.writeFileSync(path.join(import.meta.dirname, 'RESULTS.md'), lines.join('\n'));
process.stdout.write(`${lines.join('\n')}\n`);
