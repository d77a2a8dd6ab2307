import { operationLeaf } from '../framework/operationLeaf.js';
import { opSchema } from '../framework/opSchema.js';
import { renderTable } from '../output/table.js';

interface ModelsResult {
  readonly image: {
    readonly aspects: string[];
    readonly models: ReadonlyArray<{
      name: string;
      label: string;
      aliases: string[];
      ref_cap: number;
      default: boolean;
    }>;
  };
  readonly video: {
    readonly aspects: string[];
    readonly defaults: Readonly<Record<string, string | null>>;
    readonly models: ReadonlyArray<{
      name: string;
      label: string;
      aliases: string[];
      ref_cap: number;
      durations: number[];
      resolutions: string[];
    }>;
  };
}

export const modelsCommand = operationLeaf({
  name: 'models',
  description: 'List the image and video models, their --model aliases, reference caps and durations.',
  operation: 'listModels',
  schema: opSchema('listModels'),
  examples: ['gflow models', 'gflow models --json | jq .video.models[].name'],
  render: (result) => {
    const r = result as ModelsResult;
    const image = renderTable(
      ['IMAGE MODEL', 'LABEL', 'ALIASES', 'REFS', 'DEFAULT'],
      r.image.models.map((m) => [m.name, m.label, m.aliases.join(', '), m.ref_cap, m.default ? 'yes' : '']),
    );
    const defaultFor = (name: string): string =>
      Object.entries(r.video.defaults)
        .filter(([, model]) => model === name)
        .map(([mode]) => mode)
        .join(', ');
    const video = renderTable(
      ['VIDEO MODEL', 'LABEL', 'ALIASES', 'REFS', 'DURATIONS', 'RESOLUTIONS', 'DEFAULT'],
      r.video.models.map((m) => [
        m.name,
        m.label,
        m.aliases.join(', '),
        m.ref_cap,
        m.durations.join('/'),
        m.resolutions.join('/'),
        defaultFor(m.name),
      ]),
    );
    const chosenByFlow = Object.entries(r.video.defaults)
      .filter(([, model]) => model === null)
      .map(([mode]) => mode);
    return {
      data: result,
      text: `${image}\nImage aspects: ${r.image.aspects.join(', ')} (CLI default 9:16)\n\n${video}\nVideo aspects: ${r.video.aspects.join(', ')}${chosenByFlow.length ? `\nWith no --model, ${chosenByFlow.join(' and ')} run on the model Flow's composer has selected; the result records which.` : ''}`,
    };
  },
});
