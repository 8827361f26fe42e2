import type { Config } from "./config.ts";

export type Logger = {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
};

const order = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 } as const;

/** One JSON line per event on stderr. Callers never pass secrets in fields. */
export function createLogger(level: Config["logLevel"]): Logger {
  const min = order[level];
  const write = (lvl: keyof typeof order, msg: string, fields?: Record<string, unknown>) => {
    if (order[lvl] < min) return;
    process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields })}\n`);
  };
  return {
    debug: (m, f) => write("debug", m, f),
    info: (m, f) => write("info", m, f),
    warn: (m, f) => write("warn", m, f),
    error: (m, f) => write("error", m, f),
  };
}
