import type { BrowserContext, Page } from 'playwright-core';
import { BadParameterError, UiSelectorDriftError, WireFormatError } from '@gflow/errors';
import { FLOW_ORIGIN, projectIdOfUrl } from '../flow/hosts.js';
import { throwIfAborted } from '../util/abort.js';
import { withScratchPage } from '../session/scratchPage.js';
import { newProjectButton } from '../composer/anchors.js';
import { waitForAnchor } from './flowPage.js';
import { parseCreateProjectReply } from './projectReplies.js';
import { TITLE_BUTTON, renameInPage } from './renameInPage.js';
import { expectRpcReply, payloadOf } from './rpcReply.js';

export interface ProjectRef {
  readonly project_id: string;
  readonly title: string;
}

export interface CreateProjectOptions {
  /** The title to give it (Flow names a new project itself; a different title is set by a rename). */
  readonly title?: string;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/**
 * Creates a project the way a person does (flow-wire §5): the gallery's new-project button (an
 * `add` icon button outside the prompt box), Flow's own `jHPbke` reply `[project_id, [title]]`,
 * then the editor it opens. A requested title is then set through the header (`o8DA4`).
 */
export async function createProject(context: BrowserContext, options: CreateProjectOptions = {}): Promise<ProjectRef> {
  const wanted = options.title?.trim();
  if (options.title !== undefined && wanted === '') throw new BadParameterError('A project title cannot be empty.');
  const wait = { signal: options.signal, timeoutMs: options.timeoutMs ?? 30_000 };
  // A page of its own, photographed if the creation fails (the incident bundle).
  return withScratchPage(context, `${FLOW_ORIGIN}/`, { ...wait, what: 'creating a project' }, async (page) => {
    const newButton = newProjectButton(page);
    if (!(await waitForAnchor(page, newButton, wait))) {
      throw new UiSelectorDriftError('The Flow gallery offers no new-project button (a button with the `add` icon).');
    }
    const reply = expectRpcReply(page, 'jHPbke', wait);
    await newButton.first().click({ timeout: 5_000 });
    const answered = await reply;
    const deadline = Date.now() + wait.timeoutMs;
    let created: ProjectRef;
    if (answered.status === 200 && answered.envelope === null) {
      // The reply's body was gone: the page opened the new project with a full document load
      // before it could be read. The project it opened is the one the reply named.
      await urlReached(page, (id) => id !== null, deadline, options.signal);
      const opened = projectIdOfUrl(page.url());
      if (opened === null)
        throw new WireFormatError(
          "Flow's create-project reply (jHPbke) could not be read and no project editor opened.",
        );
      created = { project_id: opened, title: await headerTitle(page, wait) };
    } else {
      created = parseCreateProjectReply(payloadOf(answered));
      const id = created.project_id;
      await urlReached(page, (opened) => opened === id, deadline, options.signal);
    }
    if (wanted === undefined || wanted === created.title) return created;
    if (projectIdOfUrl(page.url()) !== created.project_id) {
      throw new UiSelectorDriftError(
        `Flow created project ${created.project_id} but did not open its editor, so it could not be titled.`,
      );
    }
    const title = await renameInPage(page, wanted, wait);
    return { project_id: created.project_id, title };
  });
}

async function headerTitle(page: Page, wait: { signal?: AbortSignal | undefined; timeoutMs: number }): Promise<string> {
  const button = page.locator(TITLE_BUTTON);
  if (!(await waitForAnchor(page, button, wait)))
    throw new UiSelectorDriftError(`The new project's editor shows no title (\`${TITLE_BUTTON}\`).`);
  return ((await button.first().textContent()) ?? '').trim();
}

/** Waits (until `deadline`) for the page's URL to name a project `wanted` accepts: a state, not a poll. */
async function urlReached(
  page: Page,
  wanted: (projectId: string | null) => boolean,
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const timeout = Math.max(1, deadline - Date.now());
  await page
    .waitForURL((url) => wanted(projectIdOfUrl(url.href)), { timeout, waitUntil: 'commit' })
    .catch(() => undefined);
  throwIfAborted(signal);
}
