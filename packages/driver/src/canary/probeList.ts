import type { CapabilityProbe } from './capability.js';
import { COMPOSER_PROBES, EDITOR_PROBES } from './composerProbes.js';
import { SETTINGS_PROBES } from './settingsProbes.js';

/**
 * Every capability the canary checks after the composer probe (which settles the composer in
 * front), in the order a run meets them. A probe reuses the anchors and functions of the code it
 * checks and never clicks what spends.
 *
 * To add one — the scene editor's extend entry once the driver drives it — write a
 * `CapabilityProbe` beside the code it checks (its `arms`, what it `expected`s, a `run` that opens
 * the control with that code's own functions and stops before anything that spends), and put it
 * here; `scene.extend` in composerProbes.ts holds its place until then, answering not offered.
 */
export const CAPABILITY_PROBES: readonly CapabilityProbe[] = [...EDITOR_PROBES, ...SETTINGS_PROBES, ...COMPOSER_PROBES];
