import { describe, expect, it } from 'vitest';
import type { ProgressEvent } from './progressPhases.js';
import { WarmUp } from './warmUp.js';

const gate = () => {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<void>((resolve, reject) => ((open = resolve), (fail = reject)));
  return { promise, open, fail };
};

describe('WarmUp', () => {
  it('starts at once; a wait reports it as progress and returns when it is done; later waits return at once', async () => {
    const warmUp = new WarmUp();
    const g = gate();
    let started = 0;
    warmUp.begin('signing in', () => ((started += 1), g.promise));
    expect(started).toBe(1);
    const events: ProgressEvent[] = [];
    let done = false;
    const waited = warmUp.wait((e) => events.push(e)).then(() => (done = true));
    expect(events).toEqual([expect.objectContaining({ phase: 'starting-browser', message: 'signing in' })]);
    await Promise.resolve();
    expect(done).toBe(false);
    g.open();
    await waited;
    await warmUp.wait(() => events.push({ phase: 'queued' }));
    expect(events).toHaveLength(1);
    expect(started).toBe(1);
  });

  it('its own work does not wait on itself (the sign-in runs an operation)', async () => {
    const warmUp = new WarmUp();
    const inner = gate();
    let innerWaited = false;
    warmUp.begin('signing in', async () => {
      await warmUp.wait();
      innerWaited = true;
      await inner.promise;
    });
    await Promise.resolve();
    expect(innerWaited).toBe(true);
    inner.open();
    await warmUp.wait();
  });

  it('a failed warm-up fails the call waiting on it, and the next call starts it again', async () => {
    const warmUp = new WarmUp();
    let attempts = 0;
    warmUp.begin('signing in', async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('the simulator refused');
    });
    await expect(warmUp.wait()).rejects.toThrow('the simulator refused');
    await warmUp.wait();
    expect(attempts).toBe(2);
  });

  it('a call that is cancelled stops waiting (the warm-up goes on)', async () => {
    const warmUp = new WarmUp();
    const g = gate();
    warmUp.begin('signing in', () => g.promise);
    const controller = new AbortController();
    const waited = warmUp.wait(undefined, controller.signal);
    controller.abort(new DOMException('stop', 'AbortError'));
    await expect(waited).rejects.toMatchObject({ name: 'AbortError' });
    g.open();
    await warmUp.wait();
  });
});
