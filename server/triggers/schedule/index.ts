export { dueTicks } from "./due-ticks.ts";
export { nextTick } from "./next-tick.ts";
export { parseSchedule } from "./parse-schedule.ts";
export { DEFAULT_TIMEZONE, type Schedule } from "./schedule.ts";
export { scheduleTickKey } from "./tick-key.ts";
export { validateSchedule } from "./validate-schedule.ts";
