import type { ConsoleEntry } from "./types.ts";

const LEVELS: readonly ConsoleEntry["level"][] = ["log", "info", "warn", "error", "debug"];

/** Collects console lines of one run, keeping the first `maxEntries` and counting the rest. */
export class ConsoleCapture {
  private readonly entries: ConsoleEntry[] = [];
  private dropped = 0;

  constructor(private readonly maxEntries: number) {}

  /** Once full, calls are only counted (and not formatted at all). */
  get full(): boolean {
    return this.entries.length >= this.maxEntries;
  }

  add(level: string, message: string): void {
    if (this.full) {
      this.dropped++;
      return;
    }
    this.entries.push({ level: LEVELS.find((l) => l === level) ?? "log", message });
  }

  drop(): void {
    this.dropped++;
  }

  logs(): ConsoleEntry[] {
    if (this.dropped === 0) return [...this.entries];
    const noun = this.dropped === 1 ? "line" : "lines";
    return [...this.entries, { level: "warn", message: `... ${this.dropped} more ${noun} dropped` }];
  }
}
