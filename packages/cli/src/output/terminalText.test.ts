import { HOSTILE_PROMPT, HOSTILE_PROMPT_SHOWN } from '@gflow/testkit';
import { describe, expect, it } from 'vitest';
import { terminalText } from './terminalText.js';

describe('terminalText (issue 40)', () => {
  it('shows CSI and OSC sequences escaped, never sends them', () => {
    expect(terminalText(HOSTILE_PROMPT)).toBe(HOSTILE_PROMPT_SHOWN);
    expect(terminalText('\u009b31m one-byte CSI')).toBe('\\u009b31m one-byte CSI');
    expect(terminalText('a\u0000b\u007fc\u0008')).toBe('a\\x00b\\x7fc\\x08');
  });

  it('escapes what reorders or splits a line', () => {
    expect(terminalText('abc\u202edcba\u2066x\u2069')).toBe('abc\\u202edcba\\u2066x\\u2069');
    expect(terminalText('one\r\ntwo\tthree\u2028four')).toBe('one\\r\\ntwo\\tthree\\u2028four');
  });

  it('keeps newlines of multi-line text, plain text, and Unicode as is; is idempotent', () => {
    expect(terminalText('line 1\nline 2 \u001b[2J', { multiline: true })).toBe('line 1\nline 2 \\x1b[2J');
    const plain = 'Café ☕ 画像 — "quoted" \\ back-slash, emoji 👩‍💻';
    expect(terminalText(plain)).toBe(plain);
    expect(terminalText(terminalText(HOSTILE_PROMPT))).toBe(HOSTILE_PROMPT_SHOWN);
  });
});
