/**
 * Polls `check` until it returns a value other than undefined: for outcomes that another part of the
 * system (a worker, a second process) produces on its own. Waits on events, never asserts timing;
 * the deadline only turns a hang into a readable failure.
 */
export async function eventually<T>(check: () => Promise<T | undefined>, what: string, deadlineMs = 15_000): Promise<T> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
