// Shared set-up of the execution benchmarks: a local API target, the service in its own process(es)
// with unlimited rate limits, and a deployed start -> api (GET /items/{id}) -> response workflow.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { type SpawnedServer, spawnServer } from "../../test/helpers/spawn-server.ts";

const ADMIN = "bench-admin-key-0123456789abcdef";
const unlimited = { requestsPerMinute: 10_000_000, maxBurst: 10_000_000 };
const LICENSE = JSON.stringify({
  payload: { licensee: "bench", plan: "enterprise", usageLimitUsd: 1e12, rateLimits: { api: unlimited, sync: unlimited, async: unlimited } },
});

export type ExecutionBench = {
  server: SpawnedServer;
  /** POST URL of the deployed workflow's execute route, and the API key's header. */
  executeUrl: string;
  auth: Record<string, string>;
  close(): Promise<void>;
};

export async function startExecutionBench(options: { env: Record<string, string>; cpuProfileDir?: string }): Promise<ExecutionBench> {
  const target = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ id: 42, path: req.url, ok: true }));
  });
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
  const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;

  const profile = options.cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${options.cpuProfileDir}`] : [];
  const server = await spawnServer(process.execPath, [...profile, "--import", "tsx", "server/main.ts"], {
    ADMIN_API_KEY: ADMIN,
    ALLOW_PRIVATE_NETWORK: "true",
    LICENSE,
    LOG_LEVEL: "error",
    NODE_ENV: "production",
    ...options.env,
  });
  const close = async () => {
    await server.stop();
    target.close();
  };

  const call = async (path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) => {
    const res = await fetch(`${server.url}${path}`, {
      method: init.method ?? "GET",
      headers: { "content-type": "application/json", ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const json = await res.json();
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  try {
    const admin = { "x-admin-key": ADMIN };
    const user = await call("/api/v1/admin/users", { method: "POST", headers: admin, body: { email: "bench@example.com", name: "Bench" } });
    const ws = await call("/api/v1/admin/workspaces", { method: "POST", headers: admin, body: { name: "Bench", ownerId: user.data.id } });
    const key = await call(`/api/v1/admin/users/${user.data.id}/api-keys`, { method: "POST", headers: admin, body: { name: "bench" } });
    const auth = { "x-api-key": key.data.key };
    const state = {
      blocks: {
        start: { type: "start", name: "Start" },
        call: { type: "api", name: "Call", params: { url: `${targetUrl}/items/{id}`, method: "GET", pathParams: { id: "<start.id>" }, query: { q: "bench" } } },
        respond: { type: "response", name: "Respond", params: { data: { item: "<call.data>", status: "<call.status>" } } },
      },
      edges: [
        { source: "start", target: "call" },
        { source: "call", target: "respond" },
      ],
      loops: {},
      parallels: {},
    };
    const wf = await call("/api/workflows", { method: "POST", headers: auth, body: { workspaceId: ws.data.id, name: "bench", state } });
    await call(`/api/workflows/${wf.data.id}/deploy`, { method: "POST", headers: auth });
    const executeUrl = `${server.url}/api/workflows/${wf.data.id}/execute`;
    const sample = await call(`/api/workflows/${wf.data.id}/execute`, { method: "POST", headers: auth, body: { id: 7 } });
    if (!sample.success || sample.output?.item?.id !== 42) throw new Error(`unexpected output ${JSON.stringify(sample)}`);
    return { server, executeUrl, auth, close };
  } catch (error) {
    await close();
    throw error;
  }
}
