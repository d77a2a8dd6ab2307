import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDocsDir } from './docsSource.js';
import { knownIssuesIndex, parseKnownIssues, slugOf } from './knownIssues.js';

describe('known issues', () => {
  it('slugs a title: lowercased, non-alphanumeric runs become one dash', () => {
    expect(slugOf("wait=true can outlast the client's tool timeout")).toBe(
      'wait-true-can-outlast-the-client-s-tool-timeout',
    );
    expect(slugOf('  A task id is a bearer capability! ')).toBe('a-task-id-is-a-bearer-capability');
  });

  it("the repository's KNOWN_ISSUES.md has a Status line in every section and unique slugs", () => {
    const markdown = fs.readFileSync(path.join(defaultDocsDir(), 'KNOWN_ISSUES.md'), 'utf8');
    const issues = parseKnownIssues(markdown);
    expect(issues.length).toBeGreaterThanOrEqual(5);
    for (const issue of issues) expect(issue.status, issue.title).not.toBe('unknown');
    expect(new Set(issues.map((i) => i.slug)).size).toBe(issues.length);
    expect(knownIssuesIndex(issues)).toContain('a-task-id-is-a-bearer-capability');
  });
});
