/**
 * Variant switches of the scene editor and its extend (flow-captures.md §10). What §10 measured —
 * the `fZytfe` body, the source slot holding the clip's workflow id, the frame window of the last
 * second, `as29s` answering the bare workflow id until the record, a 7 s result — is the default
 * and has no switch. What §10 leaves [U] has one, the first value the sim's default guess:
 * the driver's extend journey passes on every value (packages/driver/test/extend.browser.test.ts).
 * Spread into `VARIANT_VALUES` (variants.ts), so they share its checks and its control endpoint.
 */
export const SCENE_VARIANT_VALUES = {
  /** §10 [U] the scene editor's DOM: a `flow-scene-timeline` with an `add` button, or a storyboard list of shots with an `add_circle` button and a dialog composer. */
  sceneEditor: ['timeline', 'storyboard'],
  /** §10 [U] how a clip gets onto a scene: its detail view's `movie` button makes a scene holding it, or only the toolbar's New scene (an empty scene) and the timeline's "Add clip" picker. */
  sceneEntry: ['detail', 'new-scene'],
  /** §10 [U] the extend entry's words: "Extend (Veo 3.1 - Lite)" as captured (the word localised), or the model first ("Veo 3.1 - Lite · Extend"). */
  extendWords: ['captured', 'model-first'],
  /** §10 [U] which models the extend entry offers: Veo 3.1 - Lite only (as captured), or Lite, Fast and Quality, one entry each. */
  extendModels: ['lite', 'veo-all'],
  /** §10 the extension's length: 7 s (the one capture), or 8 s [U] (the source's length was not recorded). */
  extendLength: ['7', '8'],
  /** §10 [U] how much of the source's last second the extension repeats at its start: 1 s, none, or half a second. */
  extendOverlap: ['1', '0', '0.5'],
  /** §10 [U] the `fZytfe` reply (never captured): shaped like the other video submits' replies (summary + record), or only `["<workflowId>"]`. */
  extendReply: ['records', 'workflow-id'],
} as const;
