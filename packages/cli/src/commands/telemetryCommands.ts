import { setUsageRecording, usageRecordingEnabled } from '@gflow/core';
import { defineGroup, defineLeaf } from '../command/commandSpec.js';

const STATEMENT = 'gflow records which commands and tools ran, in the local catalog only (for `gflow data usage` / gflow_usage_stats); nothing is ever uploaded.';

function leaf(name: 'status' | 'on' | 'off') {
  return defineLeaf({
    name,
    description: name === 'status' ? 'Say whether local usage recording is on.' : `Turn local usage recording ${name}.`,
    recordUsage: false,
    examples: [`gflow telemetry ${name}`],
    async run(ctx) {
      const gflow = await ctx.gflow();
      const file = gflow.layout.configToml;
      if (name !== 'status') setUsageRecording(file, name === 'on');
      const enabled = usageRecordingEnabled(file);
      return {
        data: { status: 'ok', recording: enabled ? 'on' : 'off', upload: false, config_path: file },
        text: `Usage recording is ${enabled ? 'on' : 'off'}. ${STATEMENT}`,
      };
    },
  });
}

export const telemetryCommand = defineGroup({
  name: 'telemetry',
  description: 'Local usage recording (status, on, off); nothing is uploaded.',
  children: { status: leaf('status'), on: leaf('on'), off: leaf('off') },
});
