import { afterAll, beforeAll } from 'vitest';

/**
 * Starts `start()` in the file's beforeAll and closes it in afterAll; returns a stand-in that
 * forwards every property to the started value, so a file writes `const rig = useStarted(…)` once
 * instead of `let rig; beforeAll(…); afterAll(…)`. Reading it before beforeAll ran throws.
 */
export function useStarted(what, start, timeoutMs = 90_000) {
  let started;
  beforeAll(async () => {
    started = await start();
  }, timeoutMs);
  afterAll(async () => {
    const value = started;
    started = undefined;
    await value?.close();
  }, timeoutMs);
  return new Proxy(
    {},
    {
      get(_target, key) {
        if (started === undefined)
          throw new Error(
            `${what} starts in beforeAll: use it inside hooks and tests, not while the file is collected`,
          );
        const value = Reflect.get(started, key);
        return typeof value === 'function' ? value.bind(started) : value;
      },
      set(_target, key, value) {
        if (started === undefined) throw new Error(`${what} starts in beforeAll`);
        return Reflect.set(started, key, value);
      },
    },
  );
}
