import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { coverageFindings, gapCrossReferenceFindings, manifestFindings } from '../src/coverage.js';
import { REQUIREMENTS, type Requirement } from '../src/requirements.js';
import { type Registration, collectRegistrations } from '../src/verifies.js';

// Loads every suite under test/requirements without running it: their
// `useSurfaces` and `verifies` calls only record what they would register.
const SUITES = path.join(import.meta.dirname, 'requirements');
const files = fs
  .readdirSync(SUITES)
  .filter((f) => f.endsWith('.test.ts'))
  .sort();
const registered: Registration[] = await collectRegistrations(async () => {
  for (const file of files) await import(path.join(SUITES, file));
});

describe('requirements coverage', () => {
  it('finds the suites and what they register', () => {
    expect(files.length).toBeGreaterThan(0);
    expect(new Set(registered.map((r) => r.suite)).size).toBe(files.length);
  });

  it('the manifest is well-formed', () => {
    expect(manifestFindings(REQUIREMENTS)).toEqual([]);
  });

  it('every requirement is verified on each of its surfaces; known gaps are expected failures', () => {
    expect(coverageFindings(REQUIREMENTS, registered)).toEqual([]);
  });

  it('every GAP in the structural map is a known gap of a requirement', () => {
    expect(gapCrossReferenceFindings(REQUIREMENTS)).toEqual([]);
  });

  it('known gaps are registered as inverted tests on exactly their surfaces', () => {
    const gaps = REQUIREMENTS.flatMap((r) => (r.knownGap?.surfaces ?? []).map((s) => `${r.id} [${s}]`)).sort();
    const expected = registered
      .filter((g) => g.expectedFailure)
      .map((g) => `${g.id} [${g.surface}]`)
      .sort();
    expect(expected).toEqual(gaps);
  });
});

describe('the coverage checks bite', () => {
  const orphan: Requirement = {
    id: 'orphan.never-verified',
    seed: 'a requirement nobody wrote a test for',
    source: 'this test',
    surfaces: ['library', 'cli'],
  };

  it('a requirement verified nowhere is a finding', () => {
    expect(coverageFindings([...REQUIREMENTS, orphan], registered)).toEqual([
      "orphan.never-verified: verified nowhere (no verifies('orphan.never-verified', …) in test/requirements)",
    ]);
  });

  it('a missing surface, a gap registered as a plain test and a stray surface are findings', () => {
    const fake: Registration[] = [
      { id: orphan.id, surface: 'library', expectedFailure: false, suite: 'fake' },
      { id: orphan.id, surface: 'mcp-http', expectedFailure: false, suite: 'fake' },
    ];
    const gapped: Requirement = {
      ...orphan,
      knownGap: { reason: 'pretend the library lacks it for now', surfaces: ['library'] },
    };
    expect(coverageFindings([gapped], fake)).toEqual([
      'orphan.never-verified [library] in fake: a known gap registered as a plain test',
      'orphan.never-verified: not verified on cli',
      'orphan.never-verified: registered on mcp-http, which it does not list',
    ]);
  });

  it('a malformed manifest entry is a finding', () => {
    const bad: Requirement = {
      id: 'Bad Id',
      seed: 'short',
      source: '',
      surfaces: ['cli', 'cli'],
      knownGap: { reason: 'x', surfaces: ['mcp-http'] },
    };
    expect(manifestFindings([bad]).length).toBe(6);
  });

  it('a GAP in the structural map without a known gap is a finding', () => {
    expect(
      gapCrossReferenceFindings(REQUIREMENTS, { gflow_made_up: 'GAP: nothing in the manifest says so' }),
    ).toHaveLength(1);
  });
});
