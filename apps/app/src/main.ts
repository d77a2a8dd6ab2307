// The gflow binary's entry (bin/gflow.js loads it through tsx). The only
// place that touches the process: argv, stdio, signals and the exit code.
import { runGflow } from './runGflow.js';

const controller = new AbortController();
let interrupts = 0;
process.on('SIGINT', () => {
  interrupts += 1;
  // First Ctrl-C: cancel the running operation (exit 130 once it stops). Second: leave now.
  if (interrupts > 1) process.exit(130);
  controller.abort();
});

// SIGTERM (service managers, `kill`) stops like a first Ctrl-C: servers cancel and record running
// jobs (indeterminate after a submit) and close their browsers before exiting.
process.on('SIGTERM', () => controller.abort());

// --no-wait's detached worker is this same binary: the node running it and the script it was started as.
const script = process.argv[1];
const code = await runGflow(process.argv.slice(2), {
  signal: controller.signal,
  ...(script ? { workerCommand: [process.execPath, script] } : {}),
});
const flushed = (stream: NodeJS.WriteStream): Promise<void> =>
  new Promise((resolve) => stream.write('', () => resolve()));
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(code);
