import { describe, expect, it } from 'vitest';
import { CancelledError } from '@gflow/errors';
import { createKeyedQueue } from './keyedQueue.js';

interface Deferred {
  readonly promise: Promise<void>;
  resolve(): void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('createKeyedQueue', () => {
  it('runs calls on one key one at a time, in arrival order, under concurrent submissions', async () => {
    const queue = createKeyedQueue();
    const started: number[] = [];
    let active = 0;
    let maxActive = 0;
    const calls = Array.from({ length: 40 }, (_, i) =>
      queue.run('profile', async () => {
        started.push(i);
        active += 1;
        maxActive = Math.max(maxActive, active);
        // Uneven async work: later calls are often quicker, which would reorder a naive scheme.
        for (let n = 0; n < (i * 7) % 5; n += 1) await tick();
        active -= 1;
        return i * 10;
      }),
    );
    expect(queue.size('profile')).toBe(40);
    const results = await Promise.all(calls);
    expect(results).toEqual(Array.from({ length: 40 }, (_, i) => i * 10));
    expect(started).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(maxActive).toBe(1);
    expect(queue.size('profile')).toBe(0);
    expect(queue.activeKeys()).toEqual([]);
  });

  it('runs different keys in parallel', async () => {
    const queue = createKeyedQueue();
    const gate = deferred();
    const events: string[] = [];
    const a = queue.run('a', async () => {
      events.push('a start');
      await gate.promise;
      events.push('a end');
    });
    const a2 = queue.run('a', () => events.push('a2'));
    await queue.run('b', () => events.push('b'));
    expect(events).toEqual(['a start', 'b']);
    expect(queue.size('a')).toBe(2);
    gate.resolve();
    await Promise.all([a, a2]);
    expect(events).toEqual(['a start', 'b', 'a end', 'a2']);
  });

  it('a second call waits instead of failing, and a failure does not stall the queue', async () => {
    const queue = createKeyedQueue();
    const first = queue.run('p', () => Promise.reject(new Error('first failed')));
    const second = queue.run('p', () => {
      throw new Error('second threw');
    });
    const third = queue.run('p', () => 'third ran');
    await expect(first).rejects.toThrow('first failed');
    await expect(second).rejects.toThrow('second threw');
    await expect(third).resolves.toBe('third ran');
  });

  it('cancelling a queued call removes it with CancelledError and leaves the others in order', async () => {
    const queue = createKeyedQueue();
    const gate = deferred();
    const order: string[] = [];
    const controller = new AbortController();
    const running = queue.run('p', async () => {
      await gate.promise;
      order.push('running');
    });
    const cancelled = queue.run('p', () => order.push('cancelled ran'), { signal: controller.signal });
    const last = queue.run('p', () => order.push('last'));
    expect(queue.size('p')).toBe(3);

    controller.abort(new Error('client went away'));
    const error = await cancelled.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect(((error as CancelledError).cause as Error).message).toBe('client went away');
    expect(queue.size('p')).toBe(2);

    gate.resolve();
    await Promise.all([running, last]);
    expect(order).toEqual(['running', 'last']);
  });

  it('an abort after a call started does not remove or reject it: the call owns its cancellation', async () => {
    const queue = createKeyedQueue();
    const controller = new AbortController();
    const gate = deferred();
    const call = queue.run(
      'p',
      async () => {
        await gate.promise;
        return 'finished';
      },
      { signal: controller.signal },
    );
    controller.abort();
    gate.resolve();
    await expect(call).resolves.toBe('finished');
  });

  it('rejects an already-aborted call without running it', async () => {
    const queue = createKeyedQueue();
    let ran = false;
    await expect(queue.run('p', () => (ran = true), { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      CancelledError,
    );
    expect(ran).toBe(false);
    expect(queue.activeKeys()).toEqual([]);
  });
});
