/**
 * Lets request handlers tell this process's job worker that work was just queued, so it claims it
 * at once instead of at its next poll. Without a worker in this process (ROLE=api) waking does
 * nothing: the worker processes find the job when they poll.
 */
export class JobWaker {
  #listener: (() => void) | undefined;

  wake(): void {
    this.#listener?.();
  }

  /** Registers the worker to wake; returns the unregister function. */
  listen(listener: () => void): () => void {
    this.#listener = listener;
    return () => {
      if (this.#listener === listener) this.#listener = undefined;
    };
  }
}
