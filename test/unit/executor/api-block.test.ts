import { describe, expect, it } from "vitest";
import { runWorkflow } from "../../../server/executor/index.ts";
import type { WorkflowState } from "../../../server/executor/types.ts";
import { api, chain, response, start, testDeps, useReceiver } from "./helpers.ts";

const receiverOf = useReceiver((_req, res) => {
  res.setHeader("content-type", "application/json");
  res.end('{"ok":true}');
});

async function run(state: WorkflowState, input: unknown = {}) {
  const t = testDeps();
  const result = await runWorkflow({ state, input, deps: t.deps, executionId: "exec_1" });
  return { result, ...t };
}

const apiOutput = (result: Awaited<ReturnType<typeof run>>["result"]) =>
  result.traceSpans.find((s) => s.type === "api")?.output as { data: unknown; status: number; headers: Record<string, string>; error: string | null };

describe("api block: request", () => {
  it.each(["GET", "POST", "PUT", "DELETE", "PATCH"])("sends %s", async (method) => {
    const { result } = await run(chain(start(), api({ url: `${receiverOf().url}/m`, method })));
    expect(result.success).toBe(true);
    expect(receiverOf().requests.map((r) => r.method)).toEqual([method]);
  });

  it("defaults to GET and accepts a lower-case method", async () => {
    await run(chain(start(), api({ url: `${receiverOf().url}/a` }), api({ url: `${receiverOf().url}/b`, method: "patch" }, "B", "b")));
    expect(receiverOf().requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /a", "PATCH /b"]);
  });

  it("appends an object-map query, percent-encoded, keeping the URL's own query", async () => {
    const query = { q: "a b&c=d", emoji: "é", n: 5, skip: null, tag: ["x", "y"] };
    await run(chain(start(), api({ url: `${receiverOf().url}/search?page=2`, query })));
    const [req] = receiverOf().requests;
    expect(req.url).toBe("/search?page=2&q=a%20b%26c%3Dd&emoji=%C3%A9&n=5&tag=x&tag=y");
    expect(req.query.get("q")).toBe("a b&c=d");
    expect(req.query.get("page")).toBe("2");
  });

  it("accepts the query as {key, value} rows and ignores rows without a key", async () => {
    const query = [
      { key: "a", value: "1" },
      { key: "", value: "ignored" },
      { key: "a", value: "2" },
    ];
    await run(chain(start(), api({ url: `${receiverOf().url}/q`, query })));
    expect(receiverOf().requests[0].url).toBe("/q?a=1&a=2");
  });

  it("sends headers given as a map or as rows", async () => {
    await run(
      chain(
        start(),
        api({ url: `${receiverOf().url}/h1`, headers: { "X-One": "1", Accept: "text/plain" } }),
        api({ url: `${receiverOf().url}/h2`, headers: [{ key: "X-Two", value: 2 }] }, "Two", "two"),
      ),
    );
    expect(receiverOf().requests[0].headers["x-one"]).toBe("1");
    expect(receiverOf().requests[0].headers.accept).toBe("text/plain");
    expect(receiverOf().requests[1].headers["x-two"]).toBe("2");
  });

  it("sends a typed-in JSON body as application/json", async () => {
    await run(chain(start(), api({ url: `${receiverOf().url}/j`, method: "POST", body: { a: [1, { b: true }] } })));
    const [req] = receiverOf().requests;
    expect(req.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(req.body)).toEqual({ a: [1, { b: true }] });
  });

  it("keeps a content-type header that is set", async () => {
    const headers = { "Content-Type": "application/vnd.custom+json" };
    await run(chain(start(), api({ url: `${receiverOf().url}/j`, method: "PUT", headers, body: [1, 2] })));
    expect(receiverOf().requests[0].headers["content-type"]).toBe("application/vnd.custom+json");
    expect(receiverOf().requests[0].body).toBe("[1,2]");
  });

  it("sends a string body as is", async () => {
    await run(
      chain(
        start(),
        api({ url: `${receiverOf().url}/s`, method: "PATCH", body: "plain text, not JSON" }),
        api({ url: `${receiverOf().url}/s2`, method: "POST", body: '{"raw": 1}' }, "Raw", "raw"),
      ),
    );
    expect(receiverOf().requests[0].body).toBe("plain text, not JSON");
    expect(receiverOf().requests[0].headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(receiverOf().requests[1].body).toBe('{"raw": 1}');
    expect(receiverOf().requests[1].headers["content-type"]).toBe("application/json");
  });

  it.each(["GET", "DELETE"])("does not send a body with %s", async (method) => {
    await run(chain(start(), api({ url: `${receiverOf().url}/nb`, method, body: { a: 1 } })));
    const [req] = receiverOf().requests;
    expect(req.body).toBe("");
    expect(req.headers["content-length"]).toBeUndefined();
    expect(req.headers["content-type"]).toBeUndefined();
  });

  it("fills path parameters, URL-encoded", async () => {
    const params = { url: `${receiverOf().url}/items/{id}/parts/{part}`, pathParams: { id: "a b/c?", part: 7 } };
    await run(chain(start(), api(params)));
    expect(receiverOf().requests[0].url).toBe("/items/a%20b%2Fc%3F/parts/7");
  });

  it("fails the block, naming it, when a path parameter is missing (and sends nothing)", async () => {
    const { result } = await run(chain(start(), api({ url: `${receiverOf().url}/items/{id}`, pathParams: { other: "1" } })));
    expect(receiverOf().requests).toHaveLength(0);
    expect(result.success).toBe(false);
    expect(result.error).toContain('Missing path parameter "id"');
    expect(apiOutput(result)).toEqual({ data: null, status: 0, headers: {}, error: expect.stringContaining('"id"') });
  });
});

describe("api block: references", () => {
  it("keeps the type of a whole-value reference and stringifies embedded ones", async () => {
    const params = {
      url: `${receiverOf().url}/users/<start.user.id>`,
      method: "POST",
      query: { limit: "<start.limit>", label: "n=<start.limit>" },
      headers: { Authorization: "Bearer <start.token>" },
      body: "<start.user>",
    };
    const input = { user: { id: 42, name: "Ada" }, limit: 10, token: "tok-1" };
    await run(chain(start(), api(params)), input);
    const [req] = receiverOf().requests;
    expect(req.path).toBe("/users/42");
    expect(req.query.get("limit")).toBe("10");
    expect(req.query.get("label")).toBe("n=10");
    expect(req.headers.authorization).toBe("Bearer tok-1");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(req.body)).toEqual({ id: 42, name: "Ada" });
  });

  it("resolves references nested in objects and arrays, with index paths", async () => {
    const body = {
      user: { name: "<start.people.0.name>", second: "<start.people[1].name>", all: "<start.people>" },
      list: ["<start.count>", "x <start.flag> y", { deep: "<start.people.1>" }],
      text: "people: <start.people>",
    };
    const input = { people: [{ name: "Ada" }, { name: "Bob" }], count: 2, flag: false };
    await run(chain(start(), api({ url: `${receiverOf().url}/n`, method: "POST", body })), input);
    expect(JSON.parse(receiverOf().requests[0].body)).toEqual({
      user: { name: "Ada", second: "Bob", all: [{ name: "Ada" }, { name: "Bob" }] },
      list: [2, "x false y", { deep: { name: "Bob" } }],
      text: 'people: [{"name":"Ada"},{"name":"Bob"}]',
    });
  });

  it("reads another block's outputs by its normalized name", async () => {
    receiverOf().reply((req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(req.path === "/first" ? '{"next":"second","n":3}' : '{"done":true}');
    });
    const state = chain(
      start(),
      api({ url: `${receiverOf().url}/first` }, "First Call", "first"),
      api({ url: `${receiverOf().url}/<FirstCall.data.next>`, query: { n: "<firstcall.data.n>", s: "<first call.status>" } }, "Second", "second"),
    );
    const { result } = await run(state);
    expect(result.success).toBe(true);
    expect(receiverOf().requests[1].url).toBe("/second?n=3&s=200");
  });

  it("treats a missing path as undefined (whole value: left out) or empty (embedded)", async () => {
    const params = {
      url: `${receiverOf().url}/m`,
      method: "POST",
      query: { whole: "<start.nope>", embedded: "[<start.nope.deeper>]" },
      headers: { "X-Missing": "<start.nope>" },
      body: { a: "<start.nope>", b: "<start.constructor>" },
    };
    await run(chain(start(), api(params)), { present: 1 });
    const [req] = receiverOf().requests;
    expect(req.url).toBe("/m?embedded=%5B%5D");
    expect(req.headers["x-missing"]).toBeUndefined();
    expect(JSON.parse(req.body)).toEqual({});
  });

  it("leaves markup that is not a block name as text", async () => {
    const body = "<div>hello</div> <john.doe@example.com>";
    await run(chain(start(), api({ url: `${receiverOf().url}/x`, method: "POST", body })));
    expect(receiverOf().requests[0].body).toBe(body);
  });
});

describe("api block: outputs", () => {
  it("parses JSON, lower-cases headers and has no error on 2xx", async () => {
    receiverOf().reply((_req, res) => {
      res.setHeader("Content-Type", "application/json; charset=utf-8");
      res.setHeader("X-Custom", "v");
      res.statusCode = 201;
      res.end('{"id":1}');
    });
    const { result } = await run(chain(start(), api({ url: `${receiverOf().url}/o` })));
    const out = apiOutput(result);
    expect(out.data).toEqual({ id: 1 });
    expect(out.status).toBe(201);
    expect(out.headers["x-custom"]).toBe("v");
    expect(out.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(out.error).toBeNull();
  });

  it("parses a JSON object without a JSON content type, and keeps other text as text", async () => {
    receiverOf().reply((req, res) => {
      res.setHeader("content-type", "text/plain");
      res.end(req.path === "/obj" ? '[{"a":1}]' : "hello");
    });
    const state = chain(start(), api({ url: `${receiverOf().url}/obj` }), api({ url: `${receiverOf().url}/txt` }, "Text", "text"));
    const { result } = await run(state);
    expect((result.traceSpans[1].output as { data: unknown }).data).toEqual([{ a: 1 }]);
    expect((result.traceSpans[2].output as { data: unknown }).data).toBe("hello");
  });

  it("gives null data for an empty body", async () => {
    receiverOf().reply((_req, res) => {
      res.statusCode = 204;
      res.end();
    });
    const { result } = await run(chain(start(), api({ url: `${receiverOf().url}/empty`, method: "DELETE" })));
    expect(apiOutput(result)).toMatchObject({ data: null, status: 204, error: null });
  });

  it("makes its outputs available to the response block", async () => {
    receiverOf().reply((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.setHeader("x-request-id", "r-9");
      res.end('{"items":[{"name":"a"},{"name":"b"}]}');
    });
    const state = chain(
      start(),
      api({ url: `${receiverOf().url}/list` }),
      response({ data: { first: "<api.data.items.0.name>", status: "<api.status>", rid: "<api.headers.x-request-id>", error: "<api.error>" } }),
    );
    const { result } = await run(state);
    expect(result.output).toEqual({ first: "a", status: 200, rid: "r-9", error: null });
  });
});
