// @gflow/flow-sim/testing: the simulator's browser harness and the helpers that drive its page the
// way a person does. Test code only (it needs playwright-core); the simulator itself never imports it.
export { launchSimBrowser, runtimeBrowserFor, type SimBrowser, type SimBrowserLaunch } from './simBrowser.js';
export { foreignHosts, signIn, watchHosts } from './signIn.js';
export {
  captureBodies,
  makeMedia,
  openProject,
  pickModel,
  pickSettings,
  submit,
  typePrompt,
  uploadPng,
} from './flowPage.js';
export { extendInScene, openSceneWithClip, sceneAddButton, sceneClipCount, sceneMenuEntries } from './scenePage.js';
export { decodePng } from '../media/pngDecode.js';
