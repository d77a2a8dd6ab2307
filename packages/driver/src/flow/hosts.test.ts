import { describe, expect, it } from 'vitest';
import { exitCodeOf, isRetryable } from '@gflow/errors';
import { flowHostKind, flowLandingKind, projectIdOfUrl } from './hosts.js';
import { landingError } from './landingError.js';

describe('flowHostKind', () => {
  it('matches the exact https host only', () => {
    expect(flowHostKind('https://flow.google.com/project/x')).toBe('migrated');
    expect(flowHostKind('https://labs.google/fx/tools/flow')).toBe('labs');
    expect(flowHostKind('http://flow.google.com/')).toBe('none');
    expect(flowHostKind('https://flow.google.com.evil.test/')).toBe('none');
    expect(flowHostKind('https://evil.test/flow.google.com')).toBe('none');
    expect(flowHostKind('https://notlabs.google/')).toBe('none');
    expect(flowHostKind('about:blank')).toBe('none');
    expect(flowHostKind('not a url')).toBe('none');
  });
});

describe('flowLandingKind', () => {
  it.each([
    ['https://flow.google.com/project/abc', 'app'],
    ['https://flow.google.com/', 'app'],
    ['https://flow.google.com/about', 'public'],
    ['https://flow.google.com/unavailable', 'unavailable'],
    ['https://flow.google.com/404?reason=project', 'project-denied'],
    ['https://flow.google.com/404', 'app'],
    ['https://labs.google/fx/api/auth/signin?error=Callback', 'signin'],
    ['https://accounts.google.com/v3/signin/identifier', 'signin'],
    ['https://labs.google/fx/tools/flow', 'labs'],
    ['https://www.google.com/account/about', 'elsewhere'],
  ])('%s → %s', (url, kind) => {
    expect(flowLandingKind(url)).toBe(kind);
  });

  it('reads the project id', () => {
    expect(projectIdOfUrl('https://flow.google.com/project/abc/scene/x')).toBe('abc');
    expect(projectIdOfUrl('https://labs.google/project/abc')).toBeNull();
  });
});

describe('landingError', () => {
  it('maps landings to the taxonomy', () => {
    expect(landingError('https://flow.google.com/project/x', 'auto')).toBeNull();
    const about = landingError('https://flow.google.com/about', 'auto');
    expect(exitCodeOf(about)).toBe(31);
    expect(isRetryable(about)).toBe(false);
    expect(exitCodeOf(landingError('https://accounts.google.com/signin', 'auto'))).toBe(3);
    expect(exitCodeOf(landingError('https://labs.google/fx/api/auth/signin', 'auto'))).toBe(3);
    expect(exitCodeOf(landingError('https://flow.google.com/unavailable', 'auto'))).toBe(39);
    expect(exitCodeOf(landingError('https://flow.google.com/404?reason=project', 'auto'))).toBe(11);
    expect(exitCodeOf(landingError('https://flow.google.com/project/x', 'labs.google'))).toBe(36);
    expect(exitCodeOf(landingError('https://labs.google/fx/tools/flow', 'auto'))).toBe(36);
  });

  it('never puts query strings in the detail', () => {
    const e = landingError('https://accounts.google.com/signin?Email=someone%40example.com', 'auto');
    expect(e?.detail).not.toMatch(/someone/);
  });

  it('makes leaving Flow after submit not retryable', () => {
    expect(isRetryable(landingError('https://example.test/', 'auto', { afterSubmit: true }))).toBe(false);
  });
});
