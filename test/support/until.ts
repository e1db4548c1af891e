/**
 * The tests' one polling loop: waits until `check` (tried every `everyMs`) answers a value other than undefined or
 * false, and answers that value; at the deadline it throws, naming `what` it waited for. For what a test cannot be
 * told of: a process's state, a file, a store, a page.
 */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 30_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
