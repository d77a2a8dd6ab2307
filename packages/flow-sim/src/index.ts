export { startFlowSim } from './startFlowSim.js';
export type { FlowSim, FlowSimOptions } from './startFlowSim.js';
export { Scenario } from './scenario.js';
export type { ReceivedLog } from './state/received.js';
export { SUBMIT_RPC_IDS } from './state/received.js';
export { FAILURE_NAMES } from './types.js';
export { VARIANT_NAMES, VARIANT_VALUES, defaultVariants, type VariantName, type Variants } from './variants.js';
export type {
  AccountInit,
  AccountView,
  CharacterInit,
  Cohort,
  FailureName,
  FailureOptions,
  LatencySetting,
  ProjectInit,
  ReceivedRpc,
  SimLocale,
  Tier,
} from './types.js';
export { CONTROL_METHODS } from './net/controlServer.js';
export { chromiumArgsFor } from './net/chromiumArgs.js';
export { SIM_HOSTS } from './net/hosts.js';
export { makePng } from './media/png.js';
export { makeJpeg } from './media/jpeg.js';
export { makeMp4 } from './media/mp4.js';
export { readImageSize } from './media/imageSize.js';
export type { ImageInfo } from './media/imageSize.js';
export { decodeFreq, encodeEnvelope } from './wire/envelope.js';
export { describeKey, expandKey, IMAGE_ASPECTS, IMAGE_MODELS, VIDEO_ASPECTS, VIDEO_MODELS } from './wire/models.js';
export type { ImageModel, KeyInfo, VideoModel, VideoMode } from './wire/models.js';
export { startConnectProxy, type ConnectProxy } from './net/connectProxy.js';
