// @gflow/driver — the Flow browser driver. Curated public API: what core uses, nothing more
// (named exports only). The driver's own tests import the modules they check directly.

// Sessions and generation
export { openFlowSession } from './session/openFlowSession.js';
export { FlowSession } from './session/flowSession.js';
export type { DriverProgressEvent } from './session/opContext.js';
export type {
  FlowGenerationResult,
  ReferenceInput,
  SubmitQuote,
  SubmitDecision,
  SubmitHook,
} from './generate/types.js';
export type { IncidentSnapshot } from './session/incidentSnapshot.js';
export { pageSnapshotOf } from './session/scratchPage.js';
export type { FlowCheckReport } from './canary/checkFlow.js';

// Models, the menu rule, model keys, magic bytes and the profile markers are Flow facts: import
// them from @gflow/flow-facts (the one table the driver picks from and checks against).

// Downloads
export { downloadMedia } from './download/download.js';
export { downloadMediaById } from './projects/findMediaUrl.js';
export { lastFrameOf } from './media/lastFrame.js';
export { openMediaRenderer, type MediaRenderer } from './media/renderMedia.js';

// Sign-in and session probes
export { loginWithBrowser } from './auth/loginWithBrowser.js';
export { probeContext } from './auth/probeContext.js';
export { sessionProbeError } from './auth/sessionProbeError.js';
export { renewInContext } from './auth/renewSession.js';
export { cookieStoreState } from './auth/cookieChecks.js';

// Accounts, projects, characters, instruction cards, upscale
export { readCredits } from './account/readCredits.js';
export { createProject } from './projects/createProject.js';
export { renameProject } from './projects/renameProject.js';
export { readProjectNames, type ProjectNames } from './projects/projectNames.js';
export { listCharacters, showCharacter } from './characters/listCharacters.js';
export { readBrief } from './instructions/readBrief.js';
export { changeBrief } from './instructions/writeBrief.js';
export type { Brief, BriefCard, BriefChange } from './instructions/brief.js';
export { upscaleImage } from './upscale/upscaleImage.js';
export { upscaleVideo } from './upscale/upscaleVideo.js';
