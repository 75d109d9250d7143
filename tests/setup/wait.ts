/**
 * Waiting for something asynchronous without sleeping a fixed time (developers' guide:
 * "no sleeping instead of waiting"): polls `check` until it returns a value other than
 * undefined/false, or fails after `timeoutMs` with `what` in the message.
 */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = 10_000): Promise<Exclude<T, undefined | false>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value as Exclude<T, undefined | false>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
