import { describe, expect, it } from 'vitest';
import { TaskInput } from './taskInput.js';

describe('TaskInput', () => {
  it('waits for every key, answered in any order and over several updates; open() shrinks as keys are answered', async () => {
    const input = new TaskInput();
    const asked = input.ask({ a: { method: 'x' }, b: { method: 'y' } }, new AbortController().signal);
    expect(Object.keys(input.open())).toEqual(['a', 'b']);
    expect(input.answer({ b: 2, stranger: 0 })).toEqual(['b']);
    expect(input.open()).toEqual({ a: { method: 'x' } });
    expect(input.answer({ b: 3 })).toEqual([]);
    expect(input.answer({ a: 1 })).toEqual(['a']);
    await expect(asked).resolves.toEqual({ a: 1, b: 2 });
    expect(input.open()).toEqual({});
  });

  it("never asks a key twice in the task's life, and an abort rejects the wait and closes its questions", async () => {
    const input = new TaskInput();
    const controller = new AbortController();
    const asked = input.ask({ q: {} }, controller.signal);
    expect(() => input.ask({ q: {} }, controller.signal)).toThrow(/already asked/);
    controller.abort(new DOMException('stop', 'AbortError'));
    await expect(asked).rejects.toMatchObject({ name: 'AbortError' });
    expect(input.open()).toEqual({});
    expect(input.answer({ q: 1 })).toEqual([]);
  });
});
