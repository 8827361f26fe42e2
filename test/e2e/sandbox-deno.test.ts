import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { runSandboxCases, SANDBOX_CASES } from "./fixtures/sandbox-cases.ts";

const deno = join(process.cwd(), "node_modules", ".bin", "deno");
const script = join("test", "e2e", "fixtures", "sandbox-deno-main.ts");

type Printed = { cases: Record<string, unknown>; order: string[] };

async function lastLine(file: string, args: string[]): Promise<Printed> {
  const { stdout } = await promisify(execFile)(file, args, {
    env: { ...process.env, DENO_NO_UPDATE_CHECK: "1" },
    // A process kept alive by its sandbox threads would never exit.
    timeout: 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as Printed;
}

describe("the sandbox under Deno and under Node (tsx)", () => {
  it("gives the same outcomes on both, from sandbox threads that keep the event loop free", async () => {
    // Each process runs user code on its own sandbox threads (a .ts worker under Deno, a tsx
    // bootstrap under Node) and exits by itself, with or without closeSandbox().
    const [onDeno, onTsx] = await Promise.all([
      lastLine(deno, ["run", "-A", "--node-modules-dir=manual", script, "--close"]),
      lastLine(process.execPath, ["--import", "tsx", script]),
    ]);
    const onNode = await runSandboxCases();

    expect(Object.keys(onNode)).toEqual(SANDBOX_CASES.map((c) => c.name));
    // The cases cover the limits: make sure they really failed the way they should on Node first.
    expect(onNode.timeout).toMatchObject({ ok: false, error: "Function timed out after 200 ms" });
    expect(onNode.memory).toMatchObject({ ok: false, error: "Function exceeded the memory limit (64 MiB)" });
    expect(onNode.console.logs).toHaveLength(3);
    expect(onDeno.cases).toEqual(onNode);
    expect(onTsx.cases).toEqual(onNode);
    expect(onDeno.order).toEqual(["timer", "run"]);
    expect(onTsx.order).toEqual(["timer", "run"]);
  });
});
