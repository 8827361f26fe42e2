import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // The JSON report lets .ci/run print a plain "N passed, N failed" line.
    reporters: ["default", "json"],
    outputFile: { json: ".vitest-results.json" },
    projects: [
      {
        test: {
          name: "node",
          include: ["test/unit/**/*.test.ts", "test/integration/**/*.test.ts"],
          environment: "node",
          pool: "forks",
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          pool: "forks",
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
