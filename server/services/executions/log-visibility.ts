/**
 * How long after a run's start its row may still appear: insert latency and clock differences
 * between processes. Ascending log pages never reach into this window, so a cursor never passes a
 * row that lands later (docs/logs-api.md).
 */
export const SETTLE_WINDOW_MS = 2_000;
