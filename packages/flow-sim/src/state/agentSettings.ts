import type { AgentSettings, Project } from './library.js';
import type { Variants } from '../variants.js';

/** The agent's settings of a project; Flow's defaults until the user saves some [U: the defaults]. */
export function agentSettingsOf(state: { readonly variants: Variants }, project: Project): AgentSettings {
  project.agent ??= {
    imageAspect: '16:9',
    imageCount: 1,
    videoAspect: '16:9',
    videoCount: 1,
    imageModel: state.variants.imageMenu === 'nb2' ? 'Nano Banana 2' : 'Nano Banana 2.1',
    videoModel: 'Veo 3.1 - Lite',
    confirm: 'always',
  };
  return project.agent;
}
