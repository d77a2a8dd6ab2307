import { BATCH_RUN } from './batchRun.js';
import { CHAIN_RUN } from './chainRun.js';
import type { RunKind } from './runExecution.js';
import type { RunRequest } from './runRequest.js';
import type { RunResult } from './runResults.js';
import { STORY_RUN } from './storyRun.js';

/** The kind of a run request: what its steps ask for, when a failure stops it, its envelope. */
export function kindOf(request: RunRequest): RunKind<RunRequest, RunResult> {
  const kind = request.run === 'batch' ? BATCH_RUN : request.run === 'chain' ? CHAIN_RUN : STORY_RUN;
  return kind as unknown as RunKind<RunRequest, RunResult>;
}
