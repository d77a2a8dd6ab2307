// Runs of many paid steps (batches, chains, stories): a run is a row of the task queue and each step a
// child row of its own; the steps' states are written before their side effects, so a resumed,
// restarted or retried run submits only steps that never reached their submit. What other folders
// of core may use of it.
export { type GenerateBatchResult, generateBatchResult } from './batchRun.js';
export { type ChainResult, type LinkResult, chainResult } from './chainRun.js';
export { type MovieResult, type StoryStepResult, movieResult, storyStepResult } from './runResults.js';
export {
  type BatchRunRequest,
  type ChainRunRequest,
  type RunRequest,
  type StoryRunRequest,
  type StoryScene,
  storySteps,
  isRunPayload,
  stepCountOf,
} from './runRequest.js';
export { type RunResult, runClaimedRun } from './runRun.js';
export { resumeRun, runView, submitRun } from './submitRun.js';
export { currentSteps, stepState, type StepState } from './steps.js';
export { STORY_RUN, plannedStorySteps } from './storyRun.js';
