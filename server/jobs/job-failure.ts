/**
 * Thrown by a handler to steer what happens after its failure: `retry: false` fails the job at
 * once (a permanent error, e.g. a 4xx from a webhook receiver); `retryAfterMs` replaces the
 * default backoff (e.g. a delivery's fixed retry schedule). Any other error is retried with backoff.
 */
export class JobFailure extends Error {
  readonly retry: boolean;
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: { retry?: boolean; retryAfterMs?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "JobFailure";
    this.retry = options.retry ?? true;
    this.retryAfterMs = options.retryAfterMs;
  }
}
