import { ResourceNotFoundError, ResourceTemplate, type McpServer } from '@modelcontextprotocol/server';
import type { GflowLike } from '../gflowPort.js';
import { RESULT_VIEW_URI } from '../app/mcpApp.js';
import { MEDIA_TEMPLATE, PROJECT_TEMPLATE } from '../media/mediaUri.js';
import { agentGuide } from './agentGuide.js';
import { readKnownIssuesMarkdown } from './docsSource.js';
import {
  type FlowIssueLine,
  type KnownIssue,
  flowProblemsIssue,
  knownIssueText,
  knownIssuesIndex,
  parseKnownIssues,
} from './knownIssues.js';
import { MEDIA_TEMPLATE_NAME, PROJECT_TEMPLATE_NAME, registerCatalogResources } from './registerCatalogResources.js';

export const MCP_GUIDE_URI = 'gflow://docs/mcp-guide';
export const KNOWN_ISSUES_URI = 'gflow://docs/known-issues';
export const KNOWN_ISSUE_TEMPLATE = 'gflow://docs/known-issues/{slug}';
export const DB_SCHEMA_URI = 'gflow://db/schema';

/** The built-in concrete resource URIs (the MCP App's view too), and the name of the built-in template (flows may not reuse them). */
export const BUILTIN_RESOURCE_URIS: readonly string[] = [
  MCP_GUIDE_URI,
  KNOWN_ISSUES_URI,
  DB_SCHEMA_URI,
  RESULT_VIEW_URI,
];
export const BUILTIN_TEMPLATE_NAME = 'known-issue';
/** Every built-in template's name and URI template (flows may not reuse them). */
export const BUILTIN_TEMPLATE_NAMES: readonly string[] = [
  BUILTIN_TEMPLATE_NAME,
  MEDIA_TEMPLATE_NAME,
  PROJECT_TEMPLATE_NAME,
];
export const BUILTIN_TEMPLATE_URIS: readonly string[] = [KNOWN_ISSUE_TEMPLATE, MEDIA_TEMPLATE, PROJECT_TEMPLATE];

/** resources/read results may be cached for five minutes, by the requesting client only. */
const READ_HINT = { ttlMs: 300_000, cacheScope: 'private' } as const;

/**
 * The built-in resources: the agent guide, the known-issues index and sections, the catalog schema,
 * media and projects. With flows on, `flowIssues` gives the live "flows" section (files that did
 * not load), listed first in the index.
 */
export function registerResources(
  server: McpServer,
  gflow: GflowLike,
  docsDir: string,
  flowIssues?: () => readonly FlowIssueLine[],
): void {
  const knownIssues = async (): Promise<KnownIssue[]> => [
    ...(flowIssues ? [flowProblemsIssue(flowIssues())] : []),
    ...parseKnownIssues(await readKnownIssuesMarkdown(docsDir)),
  ];
  server.registerResource(
    'mcp-guide',
    MCP_GUIDE_URI,
    {
      title: 'gflow agent guide',
      description: 'How an agent should use this server: tools, wait/tasks, errors. Read it first.',
      mimeType: 'text/markdown',
      cacheHint: READ_HINT,
    },
    (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'text/markdown',
          text: agentGuide(gflow.operations(), gflow.settings.noSpend === true),
        },
      ],
    }),
  );

  server.registerResource(
    'known-issues',
    KNOWN_ISSUES_URI,
    {
      title: 'gflow known issues (index)',
      description:
        'One line per known issue: slug, title, status. Read gflow://docs/known-issues/{slug} for one issue.',
      mimeType: 'text/markdown',
      cacheHint: READ_HINT,
    },
    async (uri) => {
      const issues = await knownIssues();
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: knownIssuesIndex(issues) }] };
    },
  );

  server.registerResource(
    BUILTIN_TEMPLATE_NAME,
    new ResourceTemplate(KNOWN_ISSUE_TEMPLATE, {
      list: undefined,
      complete: {
        slug: async (value) => {
          const issues = await knownIssues();
          return issues.map((issue) => issue.slug).filter((slug) => slug.startsWith(value.toLowerCase()));
        },
      },
    }),
    {
      title: 'gflow known issue',
      description: 'The full text of one known issue (at most 16 KB).',
      mimeType: 'text/markdown',
      cacheHint: READ_HINT,
    },
    async (uri, variables) => {
      const slug = String(variables['slug'] ?? '');
      const issue = (await knownIssues()).find((candidate) => candidate.slug === slug);
      if (!issue)
        throw new ResourceNotFoundError(
          uri.href,
          `No known issue with slug "${slug.slice(0, 100)}"; read ${KNOWN_ISSUES_URI} for the list.`,
        );
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: knownIssueText(issue) }] };
    },
  );

  server.registerResource(
    'db-schema',
    DB_SCHEMA_URI,
    {
      title: 'gflow catalog schema',
      description:
        'The SQLite schema of the local catalog (gflow.db): profiles, projects, assets, operations, files, tasks.',
      mimeType: 'application/sql',
      cacheHint: READ_HINT,
    },
    async (uri) => {
      return { contents: [{ uri: uri.href, mimeType: 'application/sql', text: await gflow.schemaSql() }] };
    },
  );

  registerCatalogResources(server, gflow);
}
