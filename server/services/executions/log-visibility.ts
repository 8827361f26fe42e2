/**
 * How long after a run's start its row may still appear: insert latency and clock differences
 * between processes. Ascending log pages never reach into this window, so a cursor never passes a
 * row that lands later (docs/logs-api.md).
 */
export const SETTLE_WINDOW_MS = 2_000;

/**
 * A run still going after this long gets its `running` row, which holds ascending log pages behind
 * its start until it completes. A run that ends sooner is written once, complete: by the time any
 * page may include its start (SETTLE_WINDOW_MS later) it is final already. The margin between the
 * two covers a late timer and the insert itself.
 */
export const RUNNING_ROW_DELAY_MS = 500;
