// Bad input refused before anything reaches Flow: one problem document on stdout, its exit code the
// error table's for its type. Run by ../badInput.test.ts in a fresh home, concurrently; the
// refusals that need the sandbox's session are SANDBOX_FAILURES (sandboxCases.ts).
import type { FailureCase } from './harness.js';

export const LOCAL_FAILURES: readonly FailureCase[] = [
  { args: () => ['data', 'list', 'images', '--limit', '0'], exit: 2, code: 'bad-parameter' },
  { args: () => ['data', 'media', '3f0c2a1e-0000-4000-8000-00000000dead'], exit: 32, code: 'reference-not-found' },
  // An id that is no Flow id (a UUID) can name nothing: refused before the catalog is asked (issue 41).
  { args: () => ['data', 'media', 'no-such-media'], exit: 2, code: 'bad-parameter' },
  { args: () => ['image', 'upscale', 'bogus', '--scale', '2k'], exit: 2, code: 'bad-parameter' },
  { args: () => ['image', 't2i', 'a fox', '--project', 'abc'], exit: 2, code: 'bad-parameter' },
  { args: () => ['image', 't2i', 'a fox', '--count', '9'], exit: 2, code: 'bad-parameter' },
  { args: () => ['video', 't2v'], exit: 2, code: 'usage' },
  { args: () => ['tools', 'show', 'no-such-tool'], exit: 2, code: 'bad-parameter' },
  // A tool option the tool does not take is refused, never dropped (cinematic has grade, no style).
  { args: () => ['tools', 'run', 'cinematic', 'a harbour at dusk', '--style', 'noir'], exit: 2, code: 'bad-parameter' },
  { args: () => ['tools', 'run', 'photoreal:mood=calm', 'a harbour at dusk'], exit: 2, code: 'bad-parameter' },
  { args: () => ['auth', 'use', 'ghost'], exit: 2, code: 'no-profile' },
  { args: () => ['project', 'show', '3f0c2a1e-0000-4000-8000-00000000beef'], exit: 32, code: 'reference-not-found' },
  {
    args: () => ['instructions', 'toggle-mode', '--project', '3f0c2a1e-0000-4000-8000-00000000cafe', '--on', '--off'],
    exit: 2,
    code: 'usage',
  },
  { args: () => ['data', 'errors', 'prune'], exit: 2, code: 'usage' },
  { args: () => ['no-such-command'], exit: 2, code: 'usage' },
  // An unquoted prompt: never four one-word images, never a bare "unexpected argument".
  { args: () => ['image', 't2i', 'a', 'fox', 'in', 'snow'], exit: 2, code: 'usage' },
  { args: () => ['video', 't2v', 'a', 'fox', 'in', 'snow'], exit: 2, code: 'usage' },
];
