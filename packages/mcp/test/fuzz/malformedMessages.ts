// Seeded malformed JSON-RPC messages for the fuzz tests (issue 23). Each case says what a correct
// server answers: -32700 with id null (not JSON), -32600 with the message's id (when it can be
// read) or with id null (when it cannot), or nothing (a malformed notification). The seed is in
// the test, so a failure replays.
import { prng } from '@gflow/testkit';

export type Expectation =
  | { readonly answer: 'id'; readonly id: string | number }
  | { readonly answer: 'null'; readonly code: number }
  | { readonly answer: 'none' };

export interface FuzzCase {
  readonly line: string;
  readonly expect: Expectation;
}

const pick = <T>(rand: () => number, items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;

/** `count` malformed messages; ids are unique (`fuzz-<n>` or n), so every answer can be matched. */
export function malformedMessages(seed: number, count: number): FuzzCase[] {
  const rand = prng(seed);
  const out: FuzzCase[] = [];
  const methods = ['tools/list', 'tools/call', 'resources/read', 'prompts/get', 'no/such/method'];
  for (let n = 0; n < count; n += 1) {
    const id: string | number = rand() < 0.5 ? `fuzz-${n}` : 100_000 + n;
    const kind = Math.floor(rand() * 9);
    const method = pick(rand, methods);
    switch (kind) {
      case 0: {
        const good = JSON.stringify({ jsonrpc: '2.0', id, method, params: {} });
        out.push({
          line: good.slice(0, 1 + Math.floor(rand() * (good.length - 2))),
          expect: { answer: 'null', code: -32700 },
        });
        break;
      }
      case 1:
        out.push({
          line: JSON.stringify({ jsonrpc: pick(rand, ['1.0', 2, null, '2.0 ']), id, method }),
          expect: { answer: 'id', id },
        });
        break;
      case 2:
        out.push({ line: JSON.stringify({ id, method }), expect: { answer: 'id', id } });
        break;
      case 3:
        out.push({
          line: JSON.stringify({ jsonrpc: '2.0', id, method: pick(rand, [42, null, { m: 1 }, ['tools/list'], '']) }),
          expect: { answer: 'id', id },
        });
        break;
      case 4:
        out.push({
          line: JSON.stringify({ jsonrpc: '2.0', id, method, params: pick(rand, ['a string', [1, 2], 7, true]) }),
          expect: { answer: 'id', id },
        });
        break;
      case 5:
        out.push({
          line: JSON.stringify({ jsonrpc: '2.0', id: pick(rand, [{ n }, [n], true, null]), method }),
          expect: { answer: 'null', code: -32600 },
        });
        break;
      case 6:
        out.push({ line: JSON.stringify([{ jsonrpc: '2.0', id, method }]), expect: { answer: 'null', code: -32600 } });
        break;
      case 7:
        // A malformed notification (no id): nothing can be answered.
        out.push({
          line: JSON.stringify({ jsonrpc: pick(rand, ['1.0', 2]), method: 'notifications/initialized' }),
          expect: { answer: 'none' },
        });
        break;
      default: {
        // Not JSON → -32700; JSON that is not an object → -32600; both with id null.
        const line = pick(rand, [
          'not json',
          '{',
          '}',
          '"just a string"',
          '12345',
          'null',
          `{"jsonrpc":"2.0","id":"x${n}",`,
        ]);
        out.push({ line, expect: { answer: 'null', code: parses(line) ? -32600 : -32700 } });
      }
    }
  }
  return out;
}

function parses(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}
