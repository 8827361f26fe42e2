/** Most iterations one loop may run; a `for` above it does not validate, a while loop reaching it fails. */
export const MAX_LOOP_ITERATIONS = 1_000;
/** Most branches one parallel may start. */
export const MAX_PARALLEL_BRANCHES = 1_000;
/** Branches of one parallel running at the same time; the others wait for a free slot. */
export const PARALLEL_CONCURRENCY = 20;
/** Most attempts of a block `retry` setting (the first included). */
export const MAX_RETRY_TRIES = 10;
/** Longest wait between two attempts of a block `retry` setting. */
export const MAX_RETRY_WAIT_MS = 60_000;
/** Most block runs of one execution (all loops and branches together); beyond it the run fails. */
export const MAX_BLOCK_RUNS = 100_000;
/** The engine lets the event loop run (timers, I/O, other executions) at least once per this many block runs. */
export const BLOCK_RUNS_PER_YIELD = 50;
/** Longest pause of a wait block. */
export const MAX_WAIT_MS = 300_000;
