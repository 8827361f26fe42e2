/** Options of one outbound request through the guarded fetch. */
export type GuardedRequestInit = RequestInit & {
  /** Abort after this many milliseconds (default 30 s). */
  timeoutMs?: number;
  /** Refuse responses larger than this (default 10 MiB). */
  maxResponseBytes?: number;
};

/** A fully read response: the body is buffered so that its size can be capped. */
export type GuardedResponse = {
  status: number;
  headers: Headers;
  url: string;
  body: Uint8Array;
  text(): string;
};

export type GuardedFetch = (url: string | URL, init?: GuardedRequestInit) => Promise<GuardedResponse>;
