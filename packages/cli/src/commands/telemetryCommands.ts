import { defineGroup, defineLeaf } from '../framework/commandSpec.js';
import { runOperation } from '../framework/operationLeaf.js';

const STATEMENT =
  'gflow records which commands and tools ran, in the local catalog only (for `gflow data usage` / gflow_usage_stats); nothing is ever uploaded.';

function leaf(name: 'status' | 'on' | 'off') {
  return defineLeaf({
    name,
    description: name === 'status' ? 'Say whether local usage recording is on.' : `Turn local usage recording ${name}.`,
    recordUsage: false,
    operation: 'telemetry',
    examples: [`gflow telemetry ${name}`],
    async run(ctx) {
      // A switch in config.toml: with --sandbox too, no profile is signed in and no browser starts.
      await ctx.gflow({ loadCatalog: false, browser: false });
      const result = (await runOperation(ctx, 'telemetry', () => (name === 'status' ? {} : { set: name }))) as {
        recording: 'on' | 'off';
      };
      return { data: result, text: `Usage recording is ${result.recording}. ${STATEMENT}` };
    },
  });
}

export const telemetryCommand = defineGroup({
  name: 'telemetry',
  description: 'Local usage recording (status, on, off); nothing is uploaded.',
  children: { status: leaf('status'), on: leaf('on'), off: leaf('off') },
});
