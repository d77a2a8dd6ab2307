import type { Locator, Page } from 'playwright-core';

/**
 * DOM anchors of the classic flow.google.com composer (flow-wire §4): component tags, classes,
 * roles and Material ligatures — never translated labels.
 */
export const A = {
  trigger: '.settings-trigger-button',
  agentChip: 'button.agent-mode-chip',
  agentPanel: 'flow-agent-panel',
  /** The agent-only composer's prompt box (flow-wire §4 "Agent-only composer (#799)"). */
  agentBox: 'flow-creative-agent-prompt-box',
  overlayPane: '.cdk-overlay-pane',
  settingsPane: '.cdk-overlay-pane:has([role="radiogroup"])',
  radiogroup: '[role="radiogroup"]',
  radio: '[role="radio"]',
  menu: '[role="menu"]',
  menuItem: '[role="menuitem"]',
  promptBox: 'flow-prompt-box',
  editor: '[contenteditable="true"]',
  creditsWarning: 'button.prompt-warning-button',
  plusButton: "xpath=//button[.//mat-icon[normalize-space()='add']][not(ancestor::flow-prompt-box)]",
  emptyChip: 'flow-prompt-box button.empty-chip',
  boundChip: 'flow-prompt-box button.chip-container:has(img)',
  picker: 'flow-add-menu-popover-content',
  assetOption: 'button.asset-item[role="option"]',
  addToPrompt: 'button.detail-add-to-prompt-btn',
  mentionChip: '.mention-chip',
  /** The `@` overlay's tabs (All, Images, …, Uploads): what tells it from the other overlays. */
  mentionTab: 'mat-list-item[role="tab"]',
  consentBar: '#glue-cookie-notification-bar-1, .glue-cookie-notification-bar',
  consentReject: 'button.glue-cookie-notification-bar__reject',
  consentAccept: 'button.glue-cookie-notification-bar__accept',
  dialog: '[role="dialog"]',
  uploadTermsButton: 'button.flow-button-medium',
} as const;

/** The opaque token of a `/asb/<token>` thumbnail: grid tiles and picker options of one asset share it (flow-wire §4). */
export const ASB_TOKEN = /\/asb\/([^/?#]+)/;

function iconRegex(name: string): RegExp {
  return new RegExp(`^\\s*${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
}

/** `base` narrowed to elements holding a `<mat-icon>` whose ligature is `name`. */
export function withIcon(page: Page, base: Locator, name: string): Locator {
  return base.filter({ has: page.locator('mat-icon').filter({ hasText: iconRegex(name) }) });
}

/**
 * The gallery's new-project button: an `add` icon button outside the prompt box (flow-wire §5). The
 * one definition the generation path (a run without a project), `project create` and the canary use.
 */
export function newProjectButton(page: Page): Locator {
  return withIcon(page, page.locator('button'), 'add').filter({ hasNot: page.locator(A.promptBox) });
}

/** The text of an element without its `<mat-icon>` ligatures, whitespace collapsed. */
export async function textWithoutIcons(locator: Locator): Promise<string> {
  return locator.evaluate((el) => {
    const clone = el.cloneNode(true) as Element;
    for (const icon of Array.from(clone.querySelectorAll('mat-icon, .material-icons, .google-symbols'))) icon.remove();
    return (clone.textContent ?? '').replace(/\s+/g, ' ').trim();
  });
}

/** {@link textWithoutIcons} of every element the locator matches, in DOM order (none: []). */
export async function textsWithoutIcons(locator: Locator): Promise<string[]> {
  return locator.evaluateAll((els) =>
    els.map((el) => {
      const clone = el.cloneNode(true) as Element;
      for (const icon of Array.from(clone.querySelectorAll('mat-icon, .material-icons, .google-symbols')))
        icon.remove();
      return (clone.textContent ?? '').replace(/\s+/g, ' ').trim();
    }),
  );
}

/** The ligatures inside an element. */
export async function ligaturesOf(locator: Locator): Promise<string[]> {
  return locator.evaluate((el) => Array.from(el.querySelectorAll('mat-icon')).map((i) => (i.textContent ?? '').trim()));
}
