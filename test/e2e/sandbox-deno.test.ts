import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { runSandboxCases, SANDBOX_CASES } from "./fixtures/sandbox-cases.ts";

const deno = join(process.cwd(), "node_modules", ".bin", "deno");
const script = join("test", "e2e", "fixtures", "sandbox-deno-main.ts");

describe("the sandbox under Deno", () => {
  it("gives the same outcomes as under Node", async () => {
    const { stdout } = await promisify(execFile)(deno, ["run", "-A", "--node-modules-dir=manual", script], {
      env: { ...process.env, DENO_NO_UPDATE_CHECK: "1" },
      maxBuffer: 16 * 1024 * 1024,
    });
    const onDeno: unknown = JSON.parse(stdout.trim().split("\n").at(-1) ?? "");
    const onNode = await runSandboxCases();

    expect(Object.keys(onNode)).toEqual(SANDBOX_CASES.map((c) => c.name));
    // The cases cover the limits: make sure they really failed the way they should on Node first.
    expect(onNode.timeout).toMatchObject({ ok: false, error: "Function timed out after 200 ms" });
    expect(onNode.memory).toMatchObject({ ok: false, error: "Function exceeded the memory limit (64 MiB)" });
    expect(onNode.console.logs).toHaveLength(3);
    expect(onDeno).toEqual(onNode);
  });
});
