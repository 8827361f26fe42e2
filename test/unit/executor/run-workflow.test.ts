import { describe, expect, it } from "vitest";
import { runWorkflow } from "../../../server/executor/index.ts";
import type { WorkflowState } from "../../../server/executor/types.ts";
import { api, chain, response, start, testDeps, useReceiver } from "./helpers.ts";

const receiverOf = useReceiver((req, res) => {
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify({ path: req.path }));
});

async function run(state: WorkflowState, input: unknown = {}) {
  const t = testDeps();
  const result = await runWorkflow({ state, input, deps: t.deps, executionId: "exec_w" });
  return { result, ...t };
}

describe("runWorkflow: response block", () => {
  it("answers with the response block's data, status and headers", async () => {
    const state = chain(
      start(),
      response({ data: { echo: "<start.msg>", n: "<start.n>" }, status: 201, headers: { "X-Trace": "t-<start.n>" } }),
    );
    const { result } = await run(state, { msg: "hi", n: 3 });
    expect(result).toMatchObject({
      success: true,
      output: { echo: "hi", n: 3 },
      error: null,
      status: 201,
      headers: { "x-trace": "t-3" },
      modelUsage: [],
    });
  });

  it("keeps credential headers out of its trace span, but answers the caller with them", async () => {
    const { result } = await run(chain(start(), response({ data: 1, headers: { "Set-Cookie": "sid=<start.sid>", "X-Plain": "p" } })), { sid: "s3cret" });
    expect(result.headers).toMatchObject({ "set-cookie": "sid=s3cret", "x-plain": "p" });
    const span = JSON.stringify(result.traceSpans[1]);
    expect(span).not.toContain("s3cret");
    expect(result.traceSpans[1].output).toMatchObject({ headers: { "set-cookie": "[redacted]", "x-plain": "p" } });
  });

  it("defaults to status 200 and null data", async () => {
    const { result } = await run(chain(start(), response({})));
    expect(result).toMatchObject({ success: true, output: null, status: 200, headers: {} });
  });

  it("takes the status from a reference", async () => {
    const { result } = await run(chain(start(), response({ data: "<start>", status: "<start.code>" })), { code: 202 });
    expect(result.status).toBe(202);
    expect(result.output).toEqual({ code: 202 });
  });

  it("fails when a referenced status is not an HTTP status", async () => {
    const { result } = await run(chain(start(), response({ status: "<start.code>" })), { code: 42 });
    expect(result).toMatchObject({ success: false, status: 500 });
    expect(result.error).toContain("status must be an integer from 100 to 599");
  });

  it("fails when a response header value would break the header block", async () => {
    const { result } = await run(chain(start(), response({ headers: { "X-Name": "<start.name>" } })), { name: "a\r\nSet-Cookie: x=1" });
    expect(result).toMatchObject({ success: false, status: 500, headers: {} });
    expect(result.error).toBe('Block "Response" failed: header "X-Name" must not contain line breaks');
  });

  it("without a response block, outputs the last completed block's output with status 200", async () => {
    const { result } = await run(chain(start(), api({ url: `${receiverOf().url}/last` })));
    expect(result.status).toBe(200);
    expect(result.output).toMatchObject({ data: { path: "/last" }, status: 200, error: null });
    const onlyStart = await run(chain(start()), { a: 1 });
    expect(onlyStart.result.output).toEqual({ a: 1 });
  });
});

describe("runWorkflow: failures", () => {
  it("fails the run on a 4xx, skips the rest and reports 500", async () => {
    receiverOf().reply((_req, res) => {
      res.statusCode = 404;
      res.end("nope");
    });
    const state = chain(start(), api({ url: `${receiverOf().url}/missing` }, "Get User"), response({ data: "unreached" }));
    const { result } = await run(state);
    expect(result).toMatchObject({ success: false, status: 500, error: 'Block "Get User" failed: HTTP 404 Not Found', headers: {} });
    expect(result.traceSpans.map((s) => s.type)).toEqual(["start", "api"]);
    expect(result.traceSpans[1]).toMatchObject({ status: "error", error: "HTTP 404 Not Found" });
    expect(result.output).toEqual({ data: "nope", status: 404, headers: expect.any(Object), error: "HTTP 404 Not Found" });
  });

  it("with continueOnError, keeps the span in error but continues with the outputs", async () => {
    receiverOf().reply((_req, res) => {
      res.writeHead(409, { "content-type": "application/json" });
      res.end('{"reason":"taken"}');
    });
    const state = chain(
      start(),
      api({ url: `${receiverOf().url}/create`, method: "POST", continueOnError: true }),
      response({ data: { status: "<api.status>", error: "<api.error>", reason: "<api.data.reason>" }, status: 200 }),
    );
    const { result } = await run(state);
    expect(result).toMatchObject({ success: true, error: null, status: 200 });
    expect(result.output).toEqual({ status: 409, error: "HTTP 409 Conflict", reason: "taken" });
    expect(result.traceSpans[1]).toMatchObject({ status: "error", error: "HTTP 409 Conflict" });
    expect(result.traceSpans[2].status).toBe("success");
  });

  it("does not run an invalid state and lists its issues", async () => {
    const state = chain(start(), api({ url: "" }));
    const { result } = await run(state);
    expect(result).toMatchObject({ success: false, status: 400, traceSpans: [], output: null });
    expect(result.error).toContain('Invalid workflow: Block "API" (api): url is required');
  });

  it("never throws when a fetch throws something unexpected", async () => {
    const t = testDeps({
      fetch: async () => {
        throw new TypeError("boom");
      },
    });
    const result = await runWorkflow({ state: chain(start(), api({ url: "http://example.test/" })), input: {}, deps: t.deps, executionId: "e" });
    expect(result).toMatchObject({ success: false, status: 500, error: 'Block "API" failed: boom' });
    expect(t.sleeps).toEqual([]);
  });
});

describe("runWorkflow: graph", () => {
  it("skips a disabled block and the blocks only reachable through it", async () => {
    const state = chain(start(), api({ url: `${receiverOf().url}/a` }, "A", "a"), api({ url: `${receiverOf().url}/b` }, "B", "b"));
    state.blocks.a.enabled = false;
    const { result } = await run(state, { x: 1 });
    expect(receiverOf().requests).toHaveLength(0);
    expect(result.traceSpans.map((s) => s.blockId)).toEqual(["start"]);
    expect(result).toMatchObject({ success: true, output: { x: 1 } });
  });

  it("still runs a block that another live path reaches", async () => {
    const state: WorkflowState = {
      blocks: {
        start: { type: "start", name: "Start" },
        off: { type: "api", name: "Off", enabled: false, params: { url: `${receiverOf().url}/off` } },
        on: { type: "api", name: "On", params: { url: `${receiverOf().url}/on` } },
        join: { type: "response", name: "Join", params: { data: { on: "<on.data.path>", off: "<off.data.path>" } } },
      },
      edges: [
        { source: "start", target: "off" },
        { source: "start", target: "on" },
        { source: "off", target: "join" },
        { source: "on", target: "join" },
      ],
      loops: {},
      parallels: {},
    };
    const { result } = await run(state);
    expect(receiverOf().requests.map((r) => r.path)).toEqual(["/on"]);
    expect(result.output).toEqual({ on: "/on" });
  });

  it("runs a block after all its sources, and independent branches concurrently", async () => {
    // /left answers only once /right has arrived: run one after the other, this would time out.
    let releaseLeft: (() => void) | undefined;
    receiverOf().reply((req, res) => {
      const answer = () => res.end(JSON.stringify({ path: req.path }));
      if (req.path === "/left") releaseLeft = answer;
      else {
        answer();
        releaseLeft?.();
      }
    });
    const state: WorkflowState = {
      blocks: {
        start: { type: "start", name: "Start" },
        left: { type: "api", name: "Left", params: { url: `${receiverOf().url}/left`, timeoutMs: 5000, retries: 0 } },
        right: { type: "api", name: "Right", params: { url: `${receiverOf().url}/right`, timeoutMs: 5000, retries: 0 } },
        out: { type: "response", name: "Out", params: { data: ["<left.data.path>", "<right.data.path>"] } },
      },
      edges: [
        { source: "start", target: "left" },
        { source: "start", target: "right" },
        { source: "left", target: "out" },
        { source: "right", target: "out" },
      ],
      loops: {},
      parallels: {},
    };
    const { result } = await run(state);
    expect(result.success).toBe(true);
    expect(result.output).toEqual(["/left", "/right"]);
    expect(result.traceSpans.map((s) => s.blockId)).toEqual(["start", "left", "right", "out"]);
  });

  it("does not run blocks unreachable from the start block", async () => {
    const state = chain(start(), response({ data: "ok" }));
    state.blocks.island = { type: "api", name: "Island", params: { url: `${receiverOf().url}/island` } };
    const { result } = await run(state);
    expect(receiverOf().requests).toHaveLength(0);
    expect(result.output).toBe("ok");
  });

  it("runs the same state object again from its cached plan", async () => {
    const state = chain(start(), response({ data: "<start.n>" }));
    expect((await run(state, { n: 1 })).result.output).toBe(1);
    expect((await run(state, { n: 2 })).result.output).toBe(2);
  });
});

describe("runWorkflow: trace spans", () => {
  it("records one span per block run with times from the clock", async () => {
    const t = testDeps();
    const state = chain(start(), response({ data: "<start.v>" }));
    const result = await runWorkflow({ state, input: { v: 5 }, deps: t.deps, executionId: "e" });
    const iso = new Date(t.clock.now()).toISOString();
    expect(result.traceSpans).toEqual([
      {
        id: expect.stringMatching(/^span_[0-9a-f]{32}$/),
        name: "Start",
        type: "start",
        blockId: "start",
        status: "success",
        startTime: iso,
        endTime: iso,
        duration: 0,
        input: {},
        output: { v: 5 },
        error: null,
        children: [],
      },
      {
        id: expect.stringMatching(/^span_/),
        name: "Response",
        type: "response",
        blockId: "response",
        status: "success",
        startTime: iso,
        endTime: iso,
        duration: 0,
        input: { data: 5 },
        output: { data: 5, status: 200, headers: {} },
        error: null,
        children: [],
      },
    ]);
    expect(result.traceSpans[0].id).not.toBe(result.traceSpans[1].id);
    expect(result.startedAt).toBe(t.clock.now());
  });

  it("measures the duration of a block that waited between retries", async () => {
    receiverOf().reply((_req, res, n) => {
      res.statusCode = n === 0 ? 503 : 200;
      res.end("{}");
    });
    const t = testDeps();
    const before = t.clock.now();
    const result = await runWorkflow({ state: chain(start(), api({ url: `${receiverOf().url}/d` })), input: {}, deps: t.deps, executionId: "e" });
    const span = result.traceSpans[1];
    expect(span.duration).toBe(500);
    expect(span.startTime).toBe(new Date(before).toISOString());
    expect(span.endTime).toBe(new Date(before + 500).toISOString());
    expect(result.endedAt - result.startedAt).toBe(500);
  });

  it("redacts credential headers in span input and output but sends and passes on the real values", async () => {
    receiverOf().reply((req, res) => {
      res.setHeader("set-cookie", "sid=abc");
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ auth: req.headers.authorization, key: req.headers["x-api-key"] }));
    });
    const headers = { Authorization: "Bearer <start.token>", "X-Api-Key": "k-1", Cookie: "a=b", Accept: "application/json" };
    const rows = [
      { key: "X-Auth-Token", value: "t-2" },
      { key: "X-Plain", value: "visible" },
    ];
    const state = chain(
      start(),
      api({ url: `${receiverOf().url}/secret`, headers }),
      api({ url: `${receiverOf().url}/rows`, headers: rows }, "Rows", "rows"),
      response({ data: { seen: "<api.data>", cookie: "<api.headers.set-cookie>" } }),
    );
    const { result } = await run(state, { token: "s3cret" });
    expect(receiverOf().requests[0].headers.authorization).toBe("Bearer s3cret");
    expect(result.output).toEqual({ seen: { auth: "Bearer s3cret", key: "k-1" }, cookie: "sid=abc" });
    const [, first, second] = result.traceSpans;
    expect((first.input as { headers: unknown }).headers).toEqual({
      Authorization: "[redacted]",
      "X-Api-Key": "[redacted]",
      Cookie: "[redacted]",
      Accept: "application/json",
    });
    expect((first.output as { headers: Record<string, string> }).headers["set-cookie"]).toBe("[redacted]");
    expect((second.input as { headers: unknown }).headers).toEqual([
      { key: "X-Auth-Token", value: "[redacted]" },
      { key: "X-Plain", value: "visible" },
    ]);
    const inputs = JSON.stringify([first.input, second.input]);
    for (const secret of ["s3cret", "k-1", "a=b", "t-2"]) expect(inputs).not.toContain(secret);
  });
});
