/** Epoch milliseconds as an ISO 8601 string (stored timestamps are integers). */
export const iso = (ms: number): string => new Date(ms).toISOString();
