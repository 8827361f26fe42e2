import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type SpawnedServer = { url: string; dataDir: string; child: ChildProcess; output: () => string; stop(): Promise<void> };

/**
 * Starts server/main.ts in a child process (by its binary, never through an npm wrapper, so that
 * stopping it by PID really stops it) and waits for the banner line naming its URL.
 */
export async function spawnServer(
  command: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 90_000,
): Promise<SpawnedServer> {
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), "wf-spawn-"));
  const child = spawn(command, args, {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (d) => {
    out += d.toString();
  });
  child.stderr?.on("data", (d) => {
    out += d.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${out}`)), timeoutMs);
    const check = () => {
      const m = out.match(/running at (http:\/\/[\d.:]+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      if (!env.DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
  return {
    url,
    dataDir,
    child,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
