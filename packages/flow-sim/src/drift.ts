/**
 * Drift switches: the simulator with one anchor gflow depends on renamed, or one read-only reply
 * reshaped — what Flow's next web release could look like. Not a Flow fact: a test switch, so
 * `gflow doctor --live` (the driver's canary) is proven to notice a change and name the control
 * before a paid run meets it. Simulator-wide, set at start (`startFlowSim({ drift })`, the CLI's
 * `--drift NAME`) or at run time (`scenario.setDrift`, also over the control endpoint); pages read
 * them at their next load, the rpc handlers per reply.
 *
 * An anchor rename is applied in the page, as the page renders (assets/flow/drift.js: a mutation
 * observer rewrites what the app writes, before anything else can read it), so the app keeps
 * working with its own references and only the names a driver would anchor on change. A reply
 * reshape wraps the payload in an object on the wire, and the page's own client unwraps it (Flow
 * ships its reader with its reply), so the page keeps working and only a driver reading the old
 * shape breaks.
 */

/** One rewrite the page applies to what it renders: a class, a Material ligature or an ARIA role. */
export type DriftRule =
  | { readonly kind: 'renameClass'; readonly from: string; readonly to: string; readonly within?: string }
  | { readonly kind: 'renameLigature'; readonly from: string; readonly to: string; readonly within?: string }
  | { readonly kind: 'renameRole'; readonly from: string; readonly to: string; readonly within?: string };

interface AnchorDrift {
  readonly what: string;
  readonly rule: DriftRule;
}

interface ReplyDrift {
  readonly what: string;
  /** The rpc whose reply payload becomes `{"results": <payload>}`. */
  readonly reply: string;
}

/** Every drift switch: its name, what changes, and how. */
export const DRIFT_SWITCHES = {
  settings_trigger: {
    what: 'the composer settings trigger loses its class `settings-trigger-button` (now `settings-toggle-button`)',
    rule: { kind: 'renameClass', from: 'settings-trigger-button', to: 'settings-toggle-button' },
  },
  settings_radios: {
    what: "the settings pane's choices are `role=option` instead of `role=radio`",
    rule: { kind: 'renameRole', from: 'radio', to: 'option', within: '.cdk-overlay-pane' },
  },
  model_menu_icon: {
    what: 'the model button in the settings pane shows `expand_more` instead of `arrow_drop_down`',
    rule: { kind: 'renameLigature', from: 'arrow_drop_down', to: 'expand_more', within: '.cdk-overlay-pane' },
  },
  submit_icon: {
    what: 'the submit button shows `send` instead of `arrow_forward`',
    rule: { kind: 'renameLigature', from: 'arrow_forward', to: 'send', within: 'flow-prompt-box' },
  },
  plus_button_icon: {
    what: 'the toolbar + button shows `add_circle` instead of `add`',
    rule: { kind: 'renameLigature', from: 'add', to: 'add_circle', within: '.project-toolbar' },
  },
  upload_item_icon: {
    what: "the + menu's Upload entry shows `file_upload` instead of `upload`",
    rule: { kind: 'renameLigature', from: 'upload', to: 'file_upload', within: '.cdk-overlay-pane' },
  },
  empty_frame_chip: {
    what: 'the empty Frames chips lose their class `empty-chip` (now `frame-slot`)',
    rule: { kind: 'renameClass', from: 'empty-chip', to: 'frame-slot' },
  },
  mention_tabs: {
    what: "the `@` picker's tabs are `role=option` instead of `role=tab`",
    rule: { kind: 'renameRole', from: 'tab', to: 'option', within: '.mention-picker' },
  },
  credits_icon: {
    what: 'the header credits button shows `paid` instead of `toll`',
    rule: { kind: 'renameLigature', from: 'toll', to: 'paid', within: 'flow-app-header' },
  },
  agent_chip: {
    what: 'the agent-mode chip loses its class `agent-mode-chip` (now `agent-toggle-chip`)',
    rule: { kind: 'renameClass', from: 'agent-mode-chip', to: 'agent-toggle-chip' },
  },
  search_reply: {
    what: 'the asset search reply (`UpteDb`) comes wrapped in an object, `{"results": [[row…]]}`',
    reply: 'UpteDb',
  },
} as const satisfies Record<string, AnchorDrift | ReplyDrift>;

export type DriftName = keyof typeof DRIFT_SWITCHES;
export const DRIFT_NAMES = Object.keys(DRIFT_SWITCHES) as DriftName[];

/** Checks drift names (a typo must not silently test the default). */
export function checkDrift(names: readonly unknown[]): DriftName[] {
  for (const name of names) {
    if (typeof name !== 'string' || !Object.hasOwn(DRIFT_SWITCHES, name))
      throw new TypeError(`unknown drift switch: ${String(name)} (known: ${DRIFT_NAMES.join(', ')})`);
  }
  return [...new Set(names as DriftName[])];
}

/** What the page needs at load: the rewrites to apply and the rpcs whose replies it must unwrap. */
export function driftForPage(names: readonly DriftName[]): { rules: DriftRule[]; replies: string[] } {
  const rules: DriftRule[] = [];
  const replies: string[] = [];
  for (const name of names) {
    const drift: AnchorDrift | ReplyDrift = DRIFT_SWITCHES[name];
    if ('rule' in drift) rules.push(drift.rule);
    else replies.push(drift.reply);
  }
  return { rules, replies };
}

/** The reply payload as it goes on the wire: wrapped in an object when a reply switch names its rpc. */
export function reshapeReply(names: readonly DriftName[], rpcId: string, payload: unknown): unknown {
  const reshaped = driftForPage(names).replies.includes(rpcId);
  return reshaped && payload !== null && payload !== undefined ? { results: payload } : payload;
}
