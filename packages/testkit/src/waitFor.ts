/** Polls `condition` until it returns a truthy value (no sleeps as assertions). */
export async function waitFor<T>(
  what: string,
  condition: () => T | Promise<T>,
  timeoutMs = 60_000,
  intervalMs = 100,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
