import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../server/clock.ts";
import { chatMessages, usagePeriods } from "../../server/db/schema/index.ts";
import { billingPeriod } from "../../server/limits/usage.ts";
import { createTenant, type Tenant } from "../helpers/factories.ts";
import { type FakeProvider, startFakeProvider } from "../helpers/fake-provider.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

type SseEvent = { event: string; data: unknown };

/** Parses a whole text/event-stream body; comment lines are skipped. */
function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const frame of text.split("\n\n")) {
    let event = "message";
    const data: string[] = [];
    for (const line of frame.split("\n")) {
      if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data.push(line.slice(6));
    }
    if (data.length > 0) events.push({ event, data: JSON.parse(data.join("\n")) });
  }
  return events;
}

function envelopeOf(body: Record<string, unknown>, code: string) {
  expect(body).toMatchObject({ error: expect.any(String), code, requestId: expect.any(String) });
  expect(Object.keys(body).every((k) => ["error", "code", "details", "requestId"].includes(k))).toBe(true);
}

const chatFlow = (identifier: string, rest: Record<string, unknown>, edges: unknown[]) => ({
  blocks: { start: { type: "start", name: "Start", params: { trigger: "chat", identifier } }, ...rest },
  edges,
});

describe("chat trigger: POST /api/chat/{identifier}", () => {
  const clock = new ManualClock(Date.UTC(2026, 4, 10, 8, 30, 0));
  let server: TestServer;
  let fake: FakeProvider;
  let owner: Tenant;
  let echoId: string;

  const call = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    server.request(path, { ...init, headers: { "x-api-key": owner.apiKey, ...init.headers } });
  const chat = (identifier: string, json: unknown) => server.request(`/api/chat/${identifier}`, { method: "POST", json });

  async function deployed(state: unknown): Promise<string> {
    const created = await call("/api/workflows", { method: "POST", json: { workspaceId: owner.workspaceId, name: "Chat", state } });
    expect(created.status, await created.clone().text()).toBe(201);
    const id = (await created.json()).data.id;
    expect((await call(`/api/workflows/${id}/deploy`, { method: "POST" })).status).toBe(200);
    return id;
  }

  beforeAll(async () => {
    fake = await startFakeProvider();
    server = await startTestServer({ clock, env: fake.env });
    owner = await createTenant(server);
    // Answers "You said: <message>" through a response block whose data is text.
    echoId = await deployed(
      chatFlow(
        "echo-bot",
        { respond: { type: "response", name: "Respond", params: { data: "You said: <start.message>" } } },
        [{ source: "start", target: "respond" }],
      ),
    );
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  it("answers in JSON, starts a conversation, keeps its id and stores both turns of each exchange", async () => {
    const first = await chat("echo-bot", { message: "hello" });
    expect(first.status).toBe(200);
    const a = await first.json();
    expect(a).toEqual({
      success: true,
      conversationId: expect.stringMatching(/^conv_/),
      executionId: expect.stringMatching(/^exec_/),
      message: "You said: hello",
    });

    const second = await chat("echo-bot", { message: "again", conversationId: a.conversationId });
    expect(second.status).toBe(200);
    const b = await second.json();
    expect(b.conversationId).toBe(a.conversationId);
    expect(b.message).toBe("You said: again");
    expect(b.executionId).not.toBe(a.executionId);

    const rows = await server.deps.db
      .select({ role: chatMessages.role, content: chatMessages.content, workflowId: chatMessages.workflowId })
      .from(chatMessages)
      .where(eq(chatMessages.conversationId, a.conversationId))
      .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id));
    expect(rows).toEqual([
      { role: "user", content: "hello", workflowId: echoId },
      { role: "assistant", content: "You said: hello", workflowId: echoId },
      { role: "user", content: "again", workflowId: echoId },
      { role: "assistant", content: "You said: again", workflowId: echoId },
    ]);
  });

  it("hands the earlier turns to the run as its conversation (an agent sees them) and answers with its content", async () => {
    await deployed(
      chatFlow("agent-bot", { ask: { type: "agent", name: "Ask", params: { provider: "openai", model: "gpt-4o", userPrompt: "<start.message>" } } }, [
        { source: "start", target: "ask" },
      ]),
    );
    fake.reset();
    fake.script({ content: "Hi Ada." }, { content: "Your name is Ada." });
    const first = await (await chat("agent-bot", { message: "I am Ada" })).json();
    expect(first.message).toBe("Hi Ada.");
    const second = await (await chat("agent-bot", { message: "Who am I?", conversationId: first.conversationId })).json();
    expect(second.message).toBe("Your name is Ada.");
    expect(fake.requests[1].body.messages).toEqual([
      { role: "user", content: "I am Ada" },
      { role: "assistant", content: "Hi Ada." },
      { role: "user", content: "Who am I?" },
    ]);
    // Another conversation starts with no history.
    await chat("agent-bot", { message: "Fresh", conversationId: `conv_${"0".repeat(32)}` });
    expect(fake.requests[2].body.messages).toEqual([{ role: "user", content: "Fresh" }]);
  });

  it("streams the answer as server-sent events: message pieces, then done", async () => {
    const long = "one two three four five six seven";
    const res = await chat("echo-bot", { message: long, stream: true });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const events = parseSse(await res.text());
    const pieces = events.filter((e) => e.event === "message");
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.map((e) => (e.data as { content: string }).content).join("")).toBe(`You said: ${long}`);
    const last = events.at(-1) as SseEvent;
    expect(last.event).toBe("done");
    const done = last.data as { executionId: string; conversationId: string };
    expect(done).toEqual({ executionId: expect.stringMatching(/^exec_/), conversationId: expect.stringMatching(/^conv_/) });
    const stored = await server.deps.db
      .select({ content: chatMessages.content })
      .from(chatMessages)
      .where(and(eq(chatMessages.conversationId, done.conversationId), eq(chatMessages.role, "assistant")));
    expect(stored).toEqual([{ content: `You said: ${long}` }]);
  });

  it("reports a failed run as 500 in JSON and as an error event when streaming, storing nothing", async () => {
    const BROKEN = `conv_${"b".repeat(32)}`;
    await deployed(
      chatFlow("broken-bot", { respond: { type: "response", name: "Respond", params: { status: "<start.message>" } } }, [
        { source: "start", target: "respond" },
      ]),
    );
    const res = await chat("broken-bot", { message: "not a status", conversationId: BROKEN });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      success: false,
      conversationId: BROKEN,
      executionId: expect.stringMatching(/^exec_/),
      error: expect.stringContaining("status"),
    });
    const streamed = parseSse(await (await chat("broken-bot", { message: "nope", conversationId: BROKEN, stream: true })).text());
    expect(streamed).toEqual([
      { event: "error", data: { error: expect.stringContaining("status"), executionId: expect.any(String), conversationId: BROKEN } },
    ]);
    expect(await server.deps.db.select().from(chatMessages).where(eq(chatMessages.conversationId, BROKEN))).toEqual([]);
  });

  it("validates the body: 400 naming the parameter", async () => {
    const cases: Array<[unknown, string]> = [
      [{}, "message"],
      [{ message: "" }, "message"],
      [{ message: "   " }, "message"],
      [{ message: "x".repeat(32 * 1024 + 1) }, "message"],
      [{ message: 5 }, "message"],
      [{ message: "hi", conversationId: "has space" }, "conversationId"],
      [{ message: "hi", conversationId: "user-42" }, "conversationId"],
      [{ message: "hi", conversationId: "x".repeat(65) }, "conversationId"],
      [{ message: "hi", stream: "yes" }, "stream"],
    ];
    for (const [body, parameter] of cases) {
      const res = await chat("echo-bot", body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      const json = await res.json();
      envelopeOf(json, "INVALID_PARAMETER");
      expect(json.details[0].parameter).toBe(parameter);
    }
    const notJson = await server.request("/api/chat/echo-bot", { method: "POST", body: "hi", headers: { "content-type": "text/plain" } });
    expect(notJson.status).toBe(415);
    const badJson = await server.request("/api/chat/echo-bot", { method: "POST", body: "{", headers: { "content-type": "application/json" } });
    expect(badJson.status).toBe(400);
    envelopeOf(await badJson.json(), "INVALID_JSON");
    // A message of exactly the maximum is fine.
    expect((await chat("echo-bot", { message: "y".repeat(32 * 1024) })).status).toBe(200);
  });

  it("answers 404 for an unknown identifier, also when streaming, and after undeploy", async () => {
    for (const identifier of ["no-such-bot", "Echo-Bot", "echo-bot%2Fx"]) {
      const res = await chat(identifier, { message: "hi" });
      expect(res.status).toBe(404);
      envelopeOf(await res.json(), "NOT_FOUND");
    }
    const streamed = await chat("no-such-bot", { message: "hi", stream: true });
    expect(streamed.status).toBe(404);
    expect(streamed.headers.get("content-type")).toBe("application/json");

    const id = await deployed(
      chatFlow("short-lived", { respond: { type: "response", name: "Respond", params: { data: "ok" } } }, [{ source: "start", target: "respond" }]),
    );
    expect((await chat("short-lived", { message: "hi" })).status).toBe(200);
    expect((await call(`/api/workflows/${id}/undeploy`, { method: "POST" })).status).toBe(200);
    expect((await chat("short-lived", { message: "hi" })).status).toBe(404);
  });

  it("refuses a chat identifier another workflow holds with 409", async () => {
    const created = await call("/api/workflows", {
      method: "POST",
      json: { workspaceId: owner.workspaceId, name: "Dup", state: chatFlow("echo-bot", {}, []) },
    });
    const id = (await created.json()).data.id;
    const res = await call(`/api/workflows/${id}/deploy`, { method: "POST" });
    expect(res.status).toBe(409);
    expect((await res.json()).error).toContain('Chat identifier "echo-bot"');
  });

  it("records runs with trigger chat, billed to the owner; 402 once the owner's usage limit is reached", async () => {
    const logs = await call(`/api/v1/logs?workspaceId=${owner.workspaceId}&triggers=chat&limit=100`);
    expect(logs.status).toBe(200);
    const { data } = await logs.json();
    expect(data.length).toBeGreaterThan(3);
    expect(data.every((e: { trigger: string }) => e.trigger === "chat")).toBe(true);
    expect((await (await call(`/api/v1/logs?workspaceId=${owner.workspaceId}&triggers=webhook`)).json()).data).toEqual([]);

    await server.deps.db
      .update(usagePeriods)
      .set({ cost: 10_000 })
      .where(and(eq(usagePeriods.userId, owner.userId), eq(usagePeriods.period, billingPeriod(clock.now()))));
    const res = await chat("echo-bot", { message: "hi" });
    expect(res.status).toBe(402);
    envelopeOf(await res.json(), "USAGE_LIMIT_EXCEEDED");
  });

  it("removes the conversation history when the workflow is deleted", async () => {
    expect((await server.deps.db.select().from(chatMessages).where(eq(chatMessages.workflowId, echoId))).length).toBeGreaterThan(0);
    expect((await call(`/api/workflows/${echoId}`, { method: "DELETE" })).status).toBe(200);
    expect(await server.deps.db.select().from(chatMessages).where(eq(chatMessages.workflowId, echoId))).toEqual([]);
  });
});

describe("chat trigger and rate limits", () => {
  it("is not rate limited: chats go on when the owner's sync bucket is empty", async () => {
    const license = JSON.stringify({ payload: { licensee: "test", plan: "free", rateLimits: { sync: { requestsPerMinute: 1, maxBurst: 1 } } } });
    const server = await startTestServer({ env: { LICENSE: license } });
    try {
      const tenant = await createTenant(server);
      const headers = { "x-api-key": tenant.apiKey };
      const state = {
        blocks: {
          start: { type: "start", name: "Start", params: { trigger: "chat", identifier: "limitless" } },
          respond: { type: "response", name: "Respond", params: { data: "ok <start.message>" } },
        },
        edges: [{ source: "start", target: "respond" }],
      };
      const created = await server.request("/api/workflows", { method: "POST", headers, json: { workspaceId: tenant.workspaceId, name: "C", state } });
      const id = (await created.json()).data.id;
      await server.request(`/api/workflows/${id}/deploy`, { method: "POST", headers });
      // The API trigger spends the one token, then is refused...
      expect((await server.request(`/api/workflows/${id}/execute`, { method: "POST", headers })).ok).toBe(true);
      expect((await server.request(`/api/workflows/${id}/execute`, { method: "POST", headers })).status).toBe(429);
      // ...while chat messages are answered.
      for (const message of ["one", "two", "three"]) {
        const res = await server.request("/api/chat/limitless", { method: "POST", json: { message } });
        expect(res.status).toBe(200);
        expect((await res.json()).message).toBe(`ok ${message}`);
      }
    } finally {
      await server.close();
    }
  });
});
