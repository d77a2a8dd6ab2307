import type { BrowserContext } from 'playwright-core';
import { BadParameterError } from '@gflow/errors';
import { projectUrl } from '../flow/hosts.js';
import type { ProjectRef } from './createProject.js';
import { openFlowPage } from './flowPage.js';
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
  const page = await openFlowPage(context, projectUrl(options.projectId), wait);
  try {
    return { project_id: options.projectId, title: await renameInPage(page, title, wait) };
  } finally {
    await page.close().catch(() => undefined);
  }
}
