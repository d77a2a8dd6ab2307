import type { BrowserContext } from 'playwright-core';
import { BadParameterError } from '@gflow/errors';
import { projectUrl } from '../flow/hosts.js';
import type { ProjectRef } from './createProject.js';
import { withScratchPage } from '../session/scratchPage.js';
import { renameInPage } from './renameInPage.js';

export interface RenameProjectOptions {
  readonly projectId: string;
  readonly title: string;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/** Renames a project through its editor header; Flow's `o8DA4` reply `[title]` confirms it. */
export async function renameProject(context: BrowserContext, options: RenameProjectOptions): Promise<ProjectRef> {
  const title = options.title.trim();
  if (title === '') throw new BadParameterError('A project title cannot be empty.');
  const wait = { signal: options.signal, timeoutMs: options.timeoutMs ?? 30_000 };
  // A page of its own, photographed if the rename fails (the incident bundle).
  return withScratchPage(
    context,
    projectUrl(options.projectId),
    { ...wait, what: 'renaming a project' },
    async (page) => ({
      project_id: options.projectId,
      title: await renameInPage(page, title, wait),
    }),
  );
}
