export { startFlowSim } from './startFlowSim.js';
export type { FlowSim, FlowSimOptions } from './startFlowSim.js';

export { VARIANT_NAMES, VARIANT_VALUES, type Variants } from './variants.js';
export { SCENE_VARIANT_VALUES } from './sceneVariants.js';

export { DRIFT_NAMES, type DriftName } from './drift.js';

export { FAILURE_NAMES, type FailureName } from './types.js';

export { makePng } from './media/png.js';
export { makeMp4 } from './media/mp4.js';

export { readImageSize } from './media/imageSize.js';

export { expandKey, IMAGE_MODELS, VIDEO_MODELS } from './wire/models.js';
